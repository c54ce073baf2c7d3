//! Reading the values of a console line's options: variants, sides, yes or no, counts.

use super::{refused, variant_names};
use crate::game::Variant;
use crate::service::{echo, Refusal, ServiceError, TournamentRefusal};
use crate::store::SideChoice;
use crate::tournament::FormatError;

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

/// Why `value` of option `name` is not a number the option takes. A number out of the
/// option's range is refused with the range, in the service's words for a number in range
/// that is not offered: `days:-3` reads as `days:4` does.
pub(super) fn not_a_count(name: &str, value: &str) -> String {
    let Ok(n) = value.trim().trim_start_matches('#').parse::<i64>() else {
        return format!("{name}: `{}` is not a number", echo(value));
    };
    match name {
        "days" => Refusal::DaysNotOffered(n).to_string(),
        "level" => Refusal::NoSuchLevel(n).to_string(),
        "battle" => Refusal::NoSuchBattle(0).to_string(),
        "rounds" => {
            Refusal::Tournament(TournamentRefusal::Format(FormatError::BadRounds(n))).to_string()
        }
        "round_length" => Refusal::Tournament(TournamentRefusal::BadRoundFactor(n)).to_string(),
        _ => format!("{name}: `{}` must be a whole number from 1 up", echo(value)),
    }
}

/// A page number as typed; 0 and below are the service's to refuse, with how many there are.
pub(super) fn parse_page(value: &str) -> Result<i64, ServiceError> {
    value
        .trim()
        .parse()
        .map_err(|_| refused(not_a_count("page", value)))
}

/// The days of a vacation: none or fewer is refused as the service refuses 0.
pub(super) fn parse_vacation_days(value: &str) -> Result<u32, ServiceError> {
    match value.trim().parse::<i64>() {
        Ok(n) if n < 1 => Err(ServiceError::Refused(Refusal::VacationTooShort)),
        Ok(n) => Ok(u32::try_from(n).unwrap_or(u32::MAX)),
        Err(_) => Err(refused(not_a_count("days", value))),
    }
}
