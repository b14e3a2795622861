//! Table limits shared by rulesets: how long a name or a text may be and how many of a thing a
//! setup may list, so that no input costs unbounded work or memory. They are not rules of any
//! game; a ruleset whose refusals for going past one name a single limit rule (`ND-limits`,
//! `WA-limits`) describes its bounds with one [`TableLimits`].

use crate::RuleError;

/// One ruleset's bounds on names and texts, and the rule its refusals name.
#[derive(Debug, Clone, Copy)]
pub struct TableLimits {
    /// The rule ID of a refusal for going past a limit.
    pub rule: &'static str,
    /// Characters in a name.
    pub max_name: usize,
    /// Characters in free text.
    pub max_text: usize,
}

/// Whether a command or a setup went past a limit: the refusal differs (illegal command, or
/// a setup that cannot start).
#[derive(Debug, Clone, Copy)]
enum Source {
    Command,
    Setup,
}

impl TableLimits {
    /// A name in a command.
    pub fn name(&self, what: &str, s: &str) -> Result<(), RuleError> {
        self.bounded(Source::Command, what, s, self.max_name)
    }

    /// Free text in a command.
    pub fn text(&self, what: &str, s: &str) -> Result<(), RuleError> {
        self.bounded(Source::Command, what, s, self.max_text)
    }

    /// A name in a setup.
    pub fn setup_name(&self, what: &str, s: &str) -> Result<(), RuleError> {
        self.bounded(Source::Setup, what, s, self.max_name)
    }

    /// Free text in a setup.
    pub fn setup_text(&self, what: &str, s: &str) -> Result<(), RuleError> {
        self.bounded(Source::Setup, what, s, self.max_text)
    }

    /// A count in a setup: at most `max`.
    pub fn setup_count(&self, what: &str, n: usize, max: usize) -> Result<(), RuleError> {
        if n > max {
            return Err(RuleError::setup(
                self.rule,
                format!("at most {max} {what} (a table limit)"),
            ));
        }
        Ok(())
    }

    fn bounded(&self, source: Source, what: &str, s: &str, max: usize) -> Result<(), RuleError> {
        let plain = match max == self.max_name {
            true => crate::text::plain_name(what, s),
            false => crate::text::plain_text(what, s),
        };
        let reason = match plain {
            Err(reason) => reason,
            Ok(()) if s.chars().count() <= max => return Ok(()),
            Ok(()) => format!("{what} may be at most {max} characters long (a table limit)"),
        };
        Err(match source {
            Source::Command => RuleError::illegal(self.rule, reason),
            Source::Setup => RuleError::setup(self.rule, reason),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const LIMITS: TableLimits = TableLimits {
        rule: "X-limits",
        max_name: 3,
        max_text: 5,
    };

    #[test]
    fn texts_up_to_the_limit_pass_and_longer_ones_name_the_limit_rule() {
        assert!(LIMITS.name("a name", "abc").is_ok());
        // Characters, not bytes: three accented letters are three characters.
        assert!(LIMITS.setup_name("a name", "éèê").is_ok());
        let err = LIMITS.name("a name", "abcd").unwrap_err();
        assert_eq!(err.rule(), Some("X-limits"));
        assert!(err.to_string().contains("at most 3 characters"), "{err}");
        assert!(LIMITS.text("a goal", "abcde").is_ok());
        let err = LIMITS.setup_text("a goal", "abcdef").unwrap_err();
        assert!(matches!(err, RuleError::InvalidSetup { .. }), "{err}");
        assert!(LIMITS.setup_count("parties", 4, 4).is_ok());
        let err = LIMITS.setup_count("parties", 5, 4).unwrap_err();
        assert!(err.to_string().contains("at most 4 parties"), "{err}");
    }
}
