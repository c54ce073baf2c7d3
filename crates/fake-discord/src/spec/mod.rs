//! Discord's own OpenAPI 3.1 description of its HTTP API (tests/data/discord-api-spec), held
//! against every REST exchange with the fake: the request must be an operation of the spec
//! (method and path template) whose parameters and body fit its schemas, and the fake's answer
//! must fit the operation's response for its status. `check.rs` judges one exchange.
//!
//! The document is parsed and indexed once per process (the Discord tests are one binary,
//! ~400 tests), and each schema is compiled into a validator the first time an exchange needs it.

mod check;

use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock, PoisonError};

use jsonschema::{Draft, Registry, Validator};
use serde_json::{json, Value};

pub use check::{check_exchange, Exchange, RequestVerdict, Violation};

/// The spec as vendored, unchanged (its origin is in ORIGIN.md beside it).
const SPEC_JSON: &str = include_str!("../../../../tests/data/discord-api-spec/openapi.json");

/// The URI the document is registered under, so that every `#/components/...` reference in a
/// compiled schema resolves into it. Never fetched.
const DOC_URI: &str = "https://discord-api-spec.invalid/openapi.json";

/// Where the docs win over the spec (the spec's README: "where it and the documentation
/// disagree, the documentation wins"), as JSON pointers into the document and the schema put
/// there instead. Each is as narrow as the disagreement; docs/testing.md gives the reasons.
fn exceptions() -> Vec<(&'static str, Value)> {
    // docs/interactions/application-commands.mdx, "Application Command Object":
    // `default_member_permissions` is `?string`, a permission bit set written as a string (as
    // serenity sends it and the spec's own response schema has it); the spec's request schemas
    // type it as an integer.
    let permissions = json!({"oneOf": [
        {"type": "string", "pattern": "^[0-9]+$"},
        {"type": "integer", "minimum": 0},
        {"type": "null"},
    ]});
    vec![
        (
            "/components/schemas/ApplicationCommandUpdateRequest/properties/default_member_permissions",
            permissions.clone(),
        ),
        (
            "/components/schemas/ApplicationCommandCreateRequest/properties/default_member_permissions",
            permissions,
        ),
        // docs/reference.mdx, "Uploading Files": the attachments of a message being sent are
        // named by their index among the uploaded files, `"id": 0`, a number; the spec types
        // the id as a snowflake string. serenity sends the number.
        (
            "/components/schemas/MessageAttachmentRequest/properties/id",
            json!({"oneOf": [
                {"$ref": "#/components/schemas/SnowflakeType"},
                {"type": "integer", "minimum": 0, "maximum": 9},
            ]}),
        ),
        // docs/topics/rate-limits.md, "Rate Limit Response Structure": `code` is optional ("an
        // error code for some limits"); the spec requires it of every 429 body.
        (
            "/components/schemas/RatelimitedResponse/allOf/0",
            json!({
                "type": "object",
                "properties": {"code": {"type": "integer"}, "message": {"type": "string"}},
                "required": ["message"],
            }),
        ),
        // docs/reference.mdx, "Error Messages": the errors of an Invalid Form Body (50035) are
        // named by string codes (`"code": "BASE_TYPE_REQUIRED"`); the spec types them as the
        // integer codes of whole answers.
        (
            "/components/schemas/InnerErrors/properties/_errors/items",
            json!({
                "type": "object",
                "properties": {"code": {"type": "string"}, "message": {"type": "string"}},
                "required": ["code", "message"],
            }),
        ),
    ]
}

/// One operation of the spec: a method on a path template.
#[derive(Debug)]
pub struct Operation {
    /// The spec's `operationId`, e.g. `create_message`.
    pub id: String,
    /// Upper case, e.g. `POST`.
    pub method: String,
    /// e.g. `/channels/{channel_id}/messages`.
    pub template: String,
    /// The template's segments: `Ok(literal)` or `Err(parameter name)`.
    segments: Vec<Result<String, String>>,
    /// Path and query parameters, the path item's and the operation's.
    params: Vec<Param>,
    /// The request body's schema per content type (JSON pointers into the document).
    request: HashMap<String, String>,
    request_required: bool,
    /// Per status key (`200`, `4XX`, `default`): the response body's schema, `None` when the
    /// response has no body.
    responses: HashMap<String, Option<String>>,
}

#[derive(Debug)]
struct Param {
    name: String,
    in_path: bool,
    required: bool,
    /// JSON pointer of the parameter's schema.
    schema: String,
}

/// The spec, indexed, with its validators.
pub struct Spec {
    registry: Registry<'static>,
    operations: Vec<Operation>,
    validators: Mutex<HashMap<String, Arc<Validator>>>,
}

static DOCUMENT: OnceLock<Value> = OnceLock::new();
static SPEC: OnceLock<Spec> = OnceLock::new();

/// The spec with the exceptions applied.
fn document() -> &'static Value {
    DOCUMENT.get_or_init(|| {
        let mut doc: Value = serde_json::from_str(SPEC_JSON).expect("the vendored spec is JSON");
        for (pointer, schema) in exceptions() {
            *doc.pointer_mut(pointer)
                .unwrap_or_else(|| panic!("the spec has no {pointer}")) = schema;
        }
        doc
    })
}

/// The spec, loaded on first use.
pub fn spec() -> &'static Spec {
    SPEC.get_or_init(|| {
        let doc = document();
        let registry = Registry::new()
            .draft(Draft::Draft202012)
            .add(DOC_URI, doc)
            .and_then(|builder| builder.prepare())
            .expect("the spec indexes as JSON Schema 2020-12");
        Spec {
            registry,
            operations: operations(doc),
            validators: Mutex::new(HashMap::new()),
        }
    })
}

/// A JSON pointer segment, escaped (RFC 6901).
fn escape(segment: &str) -> String {
    segment.replace('~', "~0").replace('/', "~1")
}

/// Follows a `$ref` to `#/...` once, for the OpenAPI objects (responses, parameters) that may
/// be references; returns the object and its pointer.
fn deref(doc: &Value, pointer: String) -> (String, &Value) {
    let value = doc.pointer(&pointer).unwrap_or(&Value::Null);
    match value.get("$ref").and_then(Value::as_str) {
        Some(target) => {
            let target = target.trim_start_matches('#').to_string();
            let value = doc.pointer(&target).unwrap_or(&Value::Null);
            (target, value)
        }
        None => (pointer, value),
    }
}

fn operations(doc: &Value) -> Vec<Operation> {
    let mut list = Vec::new();
    let paths = doc["paths"].as_object().expect("the spec has paths");
    for (template, item) in paths {
        let item_pointer = format!("/paths/{}", escape(template));
        let Some(item) = item.as_object() else {
            continue;
        };
        for (method, operation) in item {
            if !matches!(method.as_str(), "get" | "put" | "post" | "delete" | "patch") {
                continue;
            }
            let op_pointer = format!("{item_pointer}/{method}");
            let mut params = Vec::new();
            for (base, list) in [
                (&item_pointer, item.get("parameters")),
                (&op_pointer, operation.get("parameters")),
            ] {
                let count = list.and_then(Value::as_array).map_or(0, Vec::len);
                for i in 0..count {
                    let (pointer, param) = deref(doc, format!("{base}/parameters/{i}"));
                    let name = param["name"].as_str().unwrap_or_default().to_string();
                    // The operation's own parameter replaces the path item's of the same name.
                    params.retain(|p: &Param| p.name != name);
                    params.push(Param {
                        name,
                        in_path: param["in"] == "path",
                        required: param["required"] == true,
                        schema: format!("{pointer}/schema"),
                    });
                }
            }
            let mut request = HashMap::new();
            let (body_pointer, body) = deref(doc, format!("{op_pointer}/requestBody"));
            if let Some(content) = body.get("content").and_then(Value::as_object) {
                for media in content.keys() {
                    request.insert(
                        media.clone(),
                        format!("{body_pointer}/content/{}/schema", escape(media)),
                    );
                }
            }
            let mut responses = HashMap::new();
            if let Some(answers) = operation.get("responses").and_then(Value::as_object) {
                for status in answers.keys() {
                    let (pointer, response) =
                        deref(doc, format!("{op_pointer}/responses/{}", escape(status)));
                    let schema = response
                        .get("content")
                        .and_then(|c| c.get("application/json"))
                        .map(|_| format!("{pointer}/content/application~1json/schema"));
                    responses.insert(status.clone(), schema);
                }
            }
            list.push(Operation {
                id: operation["operationId"]
                    .as_str()
                    .unwrap_or(template)
                    .to_string(),
                method: method.to_uppercase(),
                template: template.clone(),
                segments: template
                    .split('/')
                    .filter(|s| !s.is_empty())
                    .map(
                        |s| match s.strip_prefix('{').and_then(|s| s.strip_suffix('}')) {
                            Some(name) => Err(name.to_string()),
                            None => Ok(s.to_string()),
                        },
                    )
                    .collect(),
                params,
                request,
                request_required: body["required"] == true,
                responses,
            });
        }
    }
    list
}

/// What the spec says of a method on a path.
pub enum Route<'a> {
    Operation(&'a Operation),
    /// The path is the spec's, the method is not.
    MethodNotAllowed,
    NotFound,
}

impl Spec {
    /// The operation a request is, by method and path segments (below `/api/v10`). Where
    /// templates overlap (`/users/@me` and `/users/{user_id}`), the one with more literal
    /// segments wins, as in Discord's router.
    pub fn route(&self, method: &str, segments: &[&str]) -> Route<'_> {
        let fits = |op: &&Operation| {
            op.segments.len() == segments.len()
                && op
                    .segments
                    .iter()
                    .zip(segments)
                    .all(|(template, actual)| match template {
                        Ok(literal) => literal == actual,
                        Err(_) => true,
                    })
        };
        let literals = |op: &&Operation| op.segments.iter().filter(|s| s.is_ok()).count();
        let best = self
            .operations
            .iter()
            .filter(fits)
            .max_by_key(literals)
            .map(|op| op.template.clone());
        let Some(template) = best else {
            return Route::NotFound;
        };
        match self
            .operations
            .iter()
            .find(|op| op.template == template && op.method == method)
        {
            Some(op) => Route::Operation(op),
            None => Route::MethodNotAllowed,
        }
    }

    /// The operation with this `operationId`.
    pub fn operation(&self, id: &str) -> Option<&Operation> {
        self.operations.iter().find(|op| op.id == id)
    }

    /// The compiled validator of the schema at `pointer`, compiled on first use.
    fn validator(&self, pointer: &str) -> Arc<Validator> {
        let mut cache = self
            .validators
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        if let Some(validator) = cache.get(pointer) {
            return validator.clone();
        }
        let schema = document()
            .pointer(pointer)
            .unwrap_or_else(|| panic!("the spec has no schema at {pointer}"));
        let validator = jsonschema::options()
            .with_draft(Draft::Draft202012)
            .with_registry(&self.registry)
            // The spec's `date-time` and `uri` are checked; its own formats (`snowflake`,
            // `int32`, ...) are not formats JSON Schema knows and are skipped.
            .should_validate_formats(true)
            .should_ignore_unknown_formats(true)
            .build(&absolute_refs(schema))
            .unwrap_or_else(|e| panic!("the spec's schema at {pointer} compiles: {e}"));
        let validator = Arc::new(validator);
        cache.insert(pointer.to_string(), validator.clone());
        validator
    }
}

/// The schema with every `#/...` reference made absolute into the registered document, since a
/// schema taken out of the document is compiled on its own.
fn absolute_refs(schema: &Value) -> Value {
    match schema {
        Value::Object(map) => Value::Object(
            map.iter()
                .map(|(key, value)| match (key.as_str(), value) {
                    ("$ref", Value::String(target)) if target.starts_with('#') => {
                        (key.clone(), Value::String(format!("{DOC_URI}{target}")))
                    }
                    _ => (key.clone(), absolute_refs(value)),
                })
                .collect(),
        ),
        Value::Array(items) => Value::Array(items.iter().map(absolute_refs).collect()),
        other => other.clone(),
    }
}
