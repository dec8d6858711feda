//! The 2026-07-28 rounds ([`Revision::Rounds`](crate::Revision::Rounds)): answers from the
//! retry or the sealed state, and a round with a new sealed state for the missing ones.

use std::collections::BTreeMap;
use std::time::Duration;

use mcp_elicit_core::message::{FormRequest, METHOD_CREATE};
use mcp_elicit_core::schema::Schema;
use serde_json::{Value, json};

use super::answers::Answer;
use super::questions::Item;
use super::replies::{check_raw, form_answer};
use super::{Answers, Ask};
use crate::elicitor::reask_message;
use crate::error::Error;
use crate::respond::{InputRound, Stop};
use crate::state::Payload;

impl Ask {
    /// 2026-07-28: answers from the retry or the state; a round for the missing ones.
    pub(super) fn ask_round(&mut self, items: Vec<Item>) -> Result<Answers, Stop> {
        let mut answers = Answers::default();
        let mut wanted = BTreeMap::new();
        let max_attempts = self.elicitor.hub().config().max_attempts.max(1);
        for item in items {
            let key = item.key().to_owned();
            let given = self
                .carried
                .get(&key)
                .or_else(|| self.responses.get(&key))
                .cloned();
            match (item, given) {
                (
                    Item::Form {
                        message, schema, ..
                    },
                    Some(given),
                ) => match form_answer(&key, &given, &schema)? {
                    Ok(outcome) => {
                        self.used.insert(key.clone(), given);
                        answers.answers.insert(key, Answer::Form(outcome));
                    }
                    Err(violations) => {
                        let tries = self.tries.get(&key).copied().unwrap_or(1);
                        if tries >= max_attempts {
                            return Err(Error::invalid_content(violations).in_answer(&key).into());
                        }
                        self.tries.insert(key.clone(), tries + 1);
                        let text = reask_message(&message, &violations);
                        wanted.insert(key, form_request(&text, &schema));
                    }
                },
                (
                    Item::Form {
                        message, schema, ..
                    },
                    None,
                ) => {
                    wanted.insert(key, form_request(&message, &schema));
                }
                (Item::Raw { method, .. }, Some(given)) => {
                    let value = check_raw(&key, &method, &given)?;
                    self.used.insert(key.clone(), given);
                    answers.answers.insert(key, Answer::Raw(value));
                }
                (Item::Raw { method, params, .. }, None) => {
                    wanted.insert(key, json!({"method": method, "params": params}));
                }
            }
        }
        if wanted.is_empty() {
            return Ok(answers);
        }
        let ttl = self.elicitor.form_timeout();
        Err(Stop::Input(self.round(wanted, BTreeMap::new(), ttl)?))
    }

    /// The round asking `requests`, with a state carrying every answer this run used,
    /// the URL questions in progress and the attempts so far.
    pub(super) fn round(
        &self,
        requests: BTreeMap<String, Value>,
        urls: BTreeMap<String, String>,
        ttl: Duration,
    ) -> Result<InputRound, Error> {
        let hub = self.elicitor.hub();
        let now = hub.inner.clock.now();
        let expires = now.checked_add(ttl).unwrap_or(now);
        let payload = Payload {
            asked: requests.keys().cloned().collect(),
            answers: self.used.clone(),
            urls,
            tries: self
                .tries
                .iter()
                .filter(|(k, _)| requests.contains_key(*k))
                .map(|(k, v)| (k.clone(), *v))
                .collect(),
        };
        let state = hub
            .state_keys()?
            .seal_json(&payload, &self.binding, expires)?;
        let round = InputRound::new(requests, Some(state));
        Ok(if self.typed_rounds {
            round
        } else {
            round.exact_only()
        })
    }
}

fn form_request(message: &str, schema: &Schema) -> Value {
    json!({
        "method": METHOD_CREATE,
        "params": FormRequest::params(message, schema, None),
    })
}
