//! Property: any schema the builder makes survives `to_value → parse → to_value`
//! unchanged, property order included, and the builder's own JSON is what `to_value`
//! gives back.

use std::collections::BTreeSet;

use mcp_elicit_core::Schema;
use mcp_elicit_core::schema::{PropertyBuilder, SchemaBuilder, StringFormat};
use proptest::prelude::*;
use serde_json::Value;

fn text() -> impl Strategy<Value = String> {
    "[a-zA-Z0-9 é😀\"\\\\/~\\n-]{0,12}"
}

fn opt_text() -> impl Strategy<Value = Option<String>> {
    proptest::option::of(text())
}

/// Title, description and an optional vendor extension, for any kind.
fn decorate(
    mut p: PropertyBuilder,
    title: Option<String>,
    description: Option<String>,
    ext: Option<i64>,
) -> PropertyBuilder {
    if let Some(t) = title {
        p = p.title(t);
    }
    if let Some(d) = description {
        p = p.description(d);
    }
    if let Some(x) = ext {
        p = p.extension("x-order", x);
    }
    p
}

#[derive(Debug, Clone)]
enum Kind {
    Text {
        min: Option<u64>,
        max_extra: Option<u64>,
        pattern: Option<&'static str>,
        default_len: Option<u64>,
        fill: char,
    },
    Formatted {
        format: StringFormat,
        default: Option<&'static str>,
    },
    Number {
        integer: bool,
        min: Option<i32>,
        span: Option<u16>,
        default_at: Option<u16>,
        quarter: bool,
    },
    Boolean(Option<bool>),
    Single {
        options: Vec<String>,
        style: u8,
        default: Option<usize>,
    },
    Multi {
        options: Vec<String>,
        titled: bool,
        min: Option<usize>,
        max: Option<usize>,
        default: Option<usize>,
    },
}

fn options() -> impl Strategy<Value = Vec<String>> {
    proptest::collection::btree_set("[a-z😀]{1,5}", 1..6).prop_map(|s| s.into_iter().collect())
}

fn kind() -> impl Strategy<Value = Kind> {
    prop_oneof![
        (
            proptest::option::of(0u64..4),
            proptest::option::of(0u64..6),
            proptest::option::of(prop_oneof![
                Just("^.*$"),
                Just("[^\\n]*"),
                Just("^[\\s\\S]*$")
            ]),
            proptest::option::of(0u64..10),
            prop_oneof![Just('a'), Just('é'), Just('😀'), Just('"')],
        )
            .prop_map(|(min, max_extra, pattern, default_len, fill)| Kind::Text {
                min,
                max_extra,
                pattern,
                default_len,
                fill
            }),
        prop_oneof![
            Just((StringFormat::Email, "ann@example.com")),
            Just((StringFormat::Uri, "https://example.com/a?b=c")),
            Just((StringFormat::Date, "2024-02-29")),
            Just((StringFormat::DateTime, "2024-02-29T12:30:00+01:00")),
        ]
        .prop_flat_map(|(format, ok)| proptest::option::of(Just(ok))
            .prop_map(move |default| Kind::Formatted { format, default })),
        (
            any::<bool>(),
            proptest::option::of(-1000i32..1000),
            proptest::option::of(0u16..500),
            proptest::option::of(0u16..500),
            any::<bool>()
        )
            .prop_map(|(integer, min, span, default_at, quarter)| Kind::Number {
                integer,
                min,
                span,
                default_at,
                quarter
            }),
        proptest::option::of(any::<bool>()).prop_map(Kind::Boolean),
        (options(), 0u8..3, proptest::option::of(0usize..6)).prop_map(
            |(options, style, default)| Kind::Single {
                options,
                style,
                default
            }
        ),
        (
            options(),
            any::<bool>(),
            proptest::option::of(0usize..6),
            proptest::option::of(0usize..6),
            proptest::option::of(0usize..6)
        )
            .prop_map(|(options, titled, min, max, default)| Kind::Multi {
                options,
                titled,
                min,
                max,
                default
            }),
    ]
}

/// Makes a valid property of `kind` (bounds ordered, defaults inside them).
fn property(name: String, kind: Kind) -> PropertyBuilder {
    match kind {
        Kind::Text {
            min,
            max_extra,
            pattern,
            default_len,
            fill,
        } => {
            let mut p = PropertyBuilder::string(name);
            let max = max_extra.map(|e| min.unwrap_or(0) + e);
            if let Some(m) = min {
                p = p.min_length(m);
            }
            if let Some(m) = max {
                p = p.max_length(m);
            }
            if let Some(pat) = pattern {
                p = p.pattern(pat);
            }
            if let Some(len) = default_len {
                let len = len.clamp(min.unwrap_or(0), max.unwrap_or(u64::MAX));
                p = p.default(std::iter::repeat_n(fill, len as usize).collect::<String>());
            }
            p
        }
        Kind::Formatted { format, default } => {
            let p = PropertyBuilder::string(name).format(format);
            match default {
                Some(d) => p.default(d),
                None => p,
            }
        }
        Kind::Number {
            integer,
            min,
            span,
            default_at,
            quarter,
        } => {
            let mut p = if integer {
                PropertyBuilder::integer(name)
            } else {
                PropertyBuilder::number(name)
            };
            let lo = f64::from(min.unwrap_or(-1000));
            let hi = span.map(|s| lo + f64::from(s));
            let as_json = |x: f64| -> Value {
                if integer || !quarter {
                    Value::from(x as i64)
                } else {
                    Value::from(x + 0.25)
                }
            };
            if min.is_some() {
                p = p.minimum(as_json(lo));
            }
            if let Some(h) = hi {
                // Keep a float maximum above a float minimum.
                p = p.maximum(as_json(h));
            }
            if let Some(at) = default_at {
                let d = (lo + f64::from(at)).min(hi.unwrap_or(f64::MAX));
                p = p.default(as_json(d));
            }
            p
        }
        Kind::Boolean(d) => {
            let p = PropertyBuilder::boolean(name);
            match d {
                Some(b) => p.default(b),
                None => p,
            }
        }
        Kind::Single {
            options,
            style,
            default,
        } => {
            let n = options.len();
            let default = default.map(|i| options[i % n].clone());
            let labelled = options.iter().map(|o| (o.clone(), o.to_uppercase()));
            let p = match style {
                0 => PropertyBuilder::single_select(name, options.clone()),
                1 => PropertyBuilder::titled_single_select(name, labelled),
                _ => PropertyBuilder::legacy_titled_single_select(name, labelled),
            };
            match default {
                Some(d) => p.default(d),
                None => p,
            }
        }
        Kind::Multi {
            options,
            titled,
            min,
            max,
            default,
        } => {
            let n = options.len();
            let min = min.map(|m| m.min(n));
            let max = max.map(|m| m.clamp(min.unwrap_or(0), n));
            let mut p = if titled {
                PropertyBuilder::titled_multi_select(
                    name,
                    options.iter().map(|o| (o.clone(), format!("Label {o}"))),
                )
            } else {
                PropertyBuilder::multi_select(name, options.clone())
            };
            if let Some(m) = min {
                p = p.min_items(m as u64);
            }
            if let Some(m) = max {
                p = p.max_items(m as u64);
            }
            if let Some(k) = default {
                let k = k.clamp(min.unwrap_or(0), max.unwrap_or(n));
                p = p.default(options[..k].to_vec());
            }
            p
        }
    }
}

fn schema_builder() -> impl Strategy<Value = SchemaBuilder> {
    let props = proptest::collection::btree_set("[a-zA-Z_/~ ]{1,8}", 0..8).prop_flat_map(|names| {
        let n = names.len();
        (
            Just(names),
            proptest::collection::vec(
                (
                    kind(),
                    opt_text(),
                    opt_text(),
                    proptest::option::of(any::<i64>()),
                    any::<bool>(),
                ),
                n,
            ),
        )
    });
    (props, opt_text(), opt_text(), any::<bool>(), any::<bool>()).prop_map(
        |((names, kinds), title, description, dialect, closed): (
            (BTreeSet<String>, _),
            _,
            _,
            _,
            _,
        )| {
            let mut b = SchemaBuilder::new();
            if let Some(t) = title {
                b = b.title(t);
            }
            if let Some(d) = description {
                b = b.description(d);
            }
            if dialect {
                b = b.dialect("https://json-schema.org/draft/2020-12/schema");
            }
            if closed {
                b = b.extension("additionalProperties", false);
            }
            for (name, (kind, title, description, ext, required)) in names.into_iter().zip(kinds) {
                let mut p = decorate(property(name, kind), title, description, ext);
                if required {
                    p = p.required();
                }
                b = b.property(p);
            }
            b
        },
    )
}

fn property_names(v: &Value) -> Vec<String> {
    v.get("properties")
        .and_then(Value::as_object)
        .map(|m| m.keys().cloned().collect())
        .unwrap_or_default()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn builder_schemas_round_trip(builder in schema_builder()) {
        let built = builder.build();
        prop_assert!(built.is_ok(), "builder made an invalid schema: {:?}\n{}", built.as_ref().err().map(ToString::to_string), builder.to_value());
        let schema = built.unwrap_or_else(|_| unreachable!());
        let first = schema.to_value();
        // The JSON the builder wrote is exactly what comes back.
        prop_assert_eq!(&first, &builder.to_value());
        let again = Schema::parse(&first);
        prop_assert!(again.is_ok(), "re-parse failed: {:?}", again.as_ref().err().map(ToString::to_string));
        let second = again.unwrap_or_else(|_| unreachable!()).to_value();
        prop_assert_eq!(&second, &first);
        prop_assert_eq!(property_names(&second), property_names(&first));
        // And through text.
        let text = serde_json::to_string(&schema).unwrap_or_default();
        let third = Schema::from_json_str(&text).map(|s| s.to_value());
        prop_assert_eq!(third.ok(), Some(first));
    }
}
