//! Arguments whose values come from a known list of names (presets, bots, operations): parsed by
//! their own function, and offered by the shell completions (`tabletop completions SHELL`).

use clap::builder::{PossibleValue, TypedValueParser};

/// A value parser that parses with `parse` and offers `names` to completions. The help texts
/// list the names themselves, so clap's own `[possible values: …]` is hidden by the arguments.
#[derive(Clone)]
pub struct Named<T> {
    names: &'static [&'static str],
    parse: fn(&str) -> Result<T, String>,
}

impl<T> Named<T> {
    pub const fn new(names: &'static [&'static str], parse: fn(&str) -> Result<T, String>) -> Named<T> {
        Named { names, parse }
    }
}

impl<T: Clone + Send + Sync + 'static> TypedValueParser for Named<T> {
    type Value = T;

    fn parse_ref(
        &self,
        cmd: &clap::Command,
        arg: Option<&clap::Arg>,
        value: &std::ffi::OsStr,
    ) -> Result<T, clap::Error> {
        // The function's own errors, in clap's words for a value (`invalid value … for …: …`).
        self.parse.parse_ref(cmd, arg, value)
    }

    fn possible_values(&self) -> Option<Box<dyn Iterator<Item = PossibleValue> + '_>> {
        Some(Box::new(self.names.iter().map(|n| PossibleValue::new(*n))))
    }
}

/// The rule presets, checked when the rules are loaded.
pub fn presets() -> Named<String> {
    Named::new(&uno::PRESET_NAMES, |s| Ok(s.to_string()))
}

/// The bots, one name (or `name:parameters`).
pub fn bot() -> Named<uno_bots::BotSpec> {
    Named::new(uno_bots::BOT_NAMES, crate::bots_arg::parse_bot)
}

/// The help of a bots option: `what`, every form a bot name takes (`uno_bots::BOT_FORMS`, the one
/// list), then `more`.
pub fn bots_help(what: &str, more: &str) -> String {
    let text = format!("{what} ({}).", uno_bots::BOT_FORMS);
    if more.is_empty() {
        text
    } else {
        format!("{text} {more}")
    }
}

/// A comma-separated list of bots, kept as text (checked by the command).
pub fn bot_list() -> Named<String> {
    Named::new(uno_bots::BOT_NAMES, |s| Ok(s.to_string()))
}
