//! `multipart/form-data` parsing for the uploads serenity sends (RFC 7578).

/// One part of a form.
#[derive(Clone, Debug)]
pub struct FormPart {
    /// The `name` of the form field, e.g. `files[0]` or `payload_json`.
    pub name: String,
    /// The `filename`, present for file uploads.
    pub filename: Option<String>,
    /// The part's `Content-Type`, if given.
    pub content_type: Option<String>,
    pub data: Vec<u8>,
}

/// The boundary from a `Content-Type: multipart/form-data; boundary=...` header.
pub fn boundary(content_type: &str) -> Option<String> {
    let mut params = content_type.split(';');
    let essence = params.next()?.trim();
    if !essence.eq_ignore_ascii_case("multipart/form-data") {
        return None;
    }
    params.find_map(|param| {
        let (key, value) = param.trim().split_once('=')?;
        key.trim()
            .eq_ignore_ascii_case("boundary")
            .then(|| value.trim().trim_matches('"').to_string())
    })
}

fn find(haystack: &[u8], needle: &[u8], from: usize) -> Option<usize> {
    if needle.is_empty() || from > haystack.len() {
        return None;
    }
    haystack[from..]
        .windows(needle.len())
        .position(|w| w == needle)
        .map(|i| i + from)
}

/// The value of a `key="value"` parameter in a `Content-Disposition` header.
fn disposition_param(disposition: &str, key: &str) -> Option<String> {
    disposition.split(';').skip(1).find_map(|param| {
        let (k, v) = param.trim().split_once('=')?;
        k.trim()
            .eq_ignore_ascii_case(key)
            .then(|| v.trim().trim_matches('"').to_string())
    })
}

/// Splits a form body into its parts; `Err` says what is malformed.
pub fn parse(body: &[u8], boundary: &str) -> Result<Vec<FormPart>, String> {
    let delimiter = format!("--{boundary}").into_bytes();
    let mut parts = Vec::new();
    let mut position = find(body, &delimiter, 0).ok_or("multipart body has no opening boundary")?
        + delimiter.len();
    loop {
        if body[position..].starts_with(b"--") {
            return Ok(parts);
        }
        if !body[position..].starts_with(b"\r\n") {
            return Err("boundary not followed by CRLF".into());
        }
        position += 2;
        let head_end = find(body, b"\r\n\r\n", position).ok_or("part headers never end")?;
        let head =
            std::str::from_utf8(&body[position..head_end]).map_err(|_| "part headers not UTF-8")?;
        let content_start = head_end + 4;
        let mut closing = b"\r\n".to_vec();
        closing.extend_from_slice(&delimiter);
        let content_end = find(body, &closing, content_start).ok_or("part never closed")?;

        let mut part = FormPart {
            name: String::new(),
            filename: None,
            content_type: None,
            data: Vec::new(),
        };
        for line in head.split("\r\n") {
            let Some((name, value)) = line.split_once(':') else {
                continue;
            };
            match name.trim().to_ascii_lowercase().as_str() {
                "content-disposition" => {
                    part.name = disposition_param(value, "name").unwrap_or_default();
                    part.filename = disposition_param(value, "filename");
                }
                "content-type" => part.content_type = Some(value.trim().to_string()),
                _ => {}
            }
        }
        part.data = body[content_start..content_end].to_vec();
        parts.push(part);
        position = content_end + closing.len();
    }
}
