//! The 2025-11-25 path ([`Revision::Requests`](crate::Revision::Requests)): each question
//! sent as its own request and awaited, in order.

use super::answers::Answer;
use super::questions::Item;
use super::replies::check_raw;
use super::{Answers, Ask};
use crate::error::Error;

impl Ask {
    /// 2025-11-25: each question sent and awaited in order.
    pub(super) async fn ask_now(&mut self, items: Vec<Item>) -> Result<Answers, Error> {
        let mut answers = Answers::default();
        for item in items {
            let (key, answer) = match item {
                Item::Form {
                    key,
                    message,
                    schema,
                } => {
                    let outcome = self.elicitor.form_with_schema(message, &schema).await?;
                    (key, Answer::Form(outcome))
                }
                Item::Raw {
                    key,
                    method,
                    params,
                } => {
                    let timeout = self.elicitor.form_timeout();
                    let value = self.elicitor.send_raw(&method, params, timeout).await?;
                    let value = check_raw(&key, &method, &value)?;
                    (key, Answer::Raw(value))
                }
            };
            answers.answers.insert(key, answer);
        }
        Ok(answers)
    }
}
