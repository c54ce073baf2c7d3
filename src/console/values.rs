//! Reading the values of a console line's options: variants, sides, yes or no, counts.

use super::{refused, variant_names};
use crate::game::Variant;
use crate::service::{echo, ServiceError};
use crate::store::SideChoice;

pub(super) fn parse_variant(text: &str) -> Result<Variant, ServiceError> {
    text.parse().map_err(|_| {
        refused(format!(
            "`{}` is not a variant; choose {}",
            echo(text),
            variant_names()
        ))
    })
}

pub(super) fn parse_side(text: &str) -> Result<SideChoice, ServiceError> {
    SideChoice::from_name(text).ok_or_else(|| {
        refused(format!(
            "`{}` is not a side; choose dwarfs, trolls or random",
            echo(text)
        ))
    })
}

pub(super) fn parse_yes_no(option: &str, text: &str) -> Result<bool, ServiceError> {
    match text.trim().to_ascii_lowercase().as_str() {
        "true" | "yes" => Ok(true),
        "false" | "no" => Ok(false),
        _ => Err(refused(format!(
            "{option}: `{}` is neither true nor false",
            echo(text)
        ))),
    }
}

/// Why `value` of option `name` is no count: "-1" is a number, but not one that counts.
pub(super) fn not_a_count(name: &str, value: &str) -> String {
    match value.trim().parse::<i64>() {
        Ok(_) => format!("{name}: `{}` must be a whole number from 1 up", echo(value)),
        Err(_) => format!("{name}: `{}` is not a number", echo(value)),
    }
}
