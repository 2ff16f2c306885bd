//! A bot named as the CLI, the server and the simulator name it (`heuristic`, `ismcts:500:heuristic`,
//! `flat:6000`),
//! parsed once into a [`BotSpec`] whose numbers are within documented bounds.

use std::fmt;
use std::str::FromStr;

use crate::{Bot, FLAT_ITERATIONS};
use crate::{
    FirstLegalBot, HeuristicBot, IsmctsBot, IsmctsConfig, NetBot, Playout, PrecedenceBot, RandomBot, UniformBot,
};

/// The bot names that [`BotSpec`] knows.
pub const BOT_NAMES: &[&str] =
    &["random", "uniform", "first", "heuristic", "precedence", "ismcts", "flat", "net", "flat+net"];

/// Every form a bot name takes, for help texts: each of [`BOT_NAMES`], and the numbered forms.
pub const BOT_FORMS: &str = "random, uniform, first, heuristic, precedence, ismcts, ismcts:ITERATIONS, \
     ismcts:ITERATIONS:heuristic, ismcts:ITERATIONS:PLAYOUT:plays, flat, flat:PLAYOUTS, net, flat+net, \
     flat+net:PLAYOUTS";

/// The most iterations a search bot's name may ask for (`ismcts:N`, `flat:N`): about 0.3 s a
/// move on one core of this project's machine, so no one name can hold a core for long.
pub const MAX_ISMCTS_ITERATIONS: u32 = 50_000;

/// The longest text of a bot name that is read at all; longer names are refused unread.
const MAX_NAME_LEN: usize = 64;

/// A bot, named and bounded: build as many as needed with [`BotSpec::build`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum BotSpec {
    /// `random`: the fast random policy (prefers plays, wilds last).
    Random,
    /// `uniform`: uniformly among the legal actions.
    Uniform,
    /// `first`: always the first legal action.
    First,
    /// `heuristic`: the hand-tuned bot with its default weights.
    Heuristic,
    /// `precedence`: seed 000's fixed move precedence.
    Precedence,
    /// `ismcts[:ITERATIONS[:PLAYOUT[:plays]]]`: information-set Monte Carlo tree search.
    Ismcts {
        /// Iterations per decision, 1 to [`MAX_ISMCTS_ITERATIONS`].
        iterations: u32,
        /// The playout policy (`random` or `heuristic`).
        playout: Playout,
        /// `plays`: deal worlds that fit the other seats' plays, were they `heuristic` bots
        /// ([`IsmctsConfig::infer_plays`]).
        plays: bool,
    },
    /// `flat[:PLAYOUTS]`: flat Monte Carlo with the other seats modelled as `heuristic` bots
    /// ([`IsmctsConfig::flat_model`]), the best measured against them.
    Flat {
        /// Playouts per decision, 1 to [`MAX_ISMCTS_ITERATIONS`].
        iterations: u32,
    },
    /// `net`: the shipped learned Q network alone ([`crate::NetBot`], `docs/model.md`).
    Net,
    /// `flat+net[:PLAYOUTS]`: `flat` searching only the moves the learned network ranks best
    /// ([`IsmctsConfig::flat_net_model`]).
    FlatNet {
        /// Playouts per decision, 1 to [`MAX_ISMCTS_ITERATIONS`].
        iterations: u32,
    },
}

/// Why a bot name was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum BotSpecError {
    /// No bot has this name.
    #[error("unknown bot '{name}' (known: {known})", known = BOT_NAMES.join(", "))]
    Unknown {
        /// The name as given (cut to a bounded excerpt).
        name: String,
    },
    /// The bot takes no parameters, but some were given.
    #[error("bot '{base}' takes no parameters (got '{name}')")]
    NoParameters {
        /// The bot's name.
        base: String,
        /// The whole name as given (cut to a bounded excerpt).
        name: String,
    },
    /// A search bot's iteration count is not a number from 1 to the maximum.
    #[error("{base} iterations must be a whole number from 1 to {max} (got '{got}')", max = MAX_ISMCTS_ITERATIONS)]
    Iterations {
        /// The bot's name.
        base: String,
        /// The count as given (cut to a bounded excerpt).
        got: String,
    },
    /// The IS-MCTS playout policy is not one of `random`, `heuristic`.
    #[error("ismcts playout must be 'random' or 'heuristic' (got '{got}')")]
    Playout {
        /// The policy as given (cut to a bounded excerpt).
        got: String,
    },
    /// The fourth part of an IS-MCTS name is not `plays`.
    #[error("ismcts option must be 'plays' (got '{got}')")]
    Option {
        /// The option as given (cut to a bounded excerpt).
        got: String,
    },
    /// More parts than `ismcts:ITERATIONS:PLAYOUT:plays`.
    #[error("too many ':' parts in bot name '{name}' (at most ismcts:ITERATIONS:PLAYOUT:plays)")]
    TooManyParts {
        /// The name as given (cut to a bounded excerpt).
        name: String,
    },
}

/// A bounded excerpt of user text for an error message.
fn excerpt(s: &str) -> String {
    if s.chars().count() <= MAX_NAME_LEN {
        s.to_string()
    } else {
        let cut: String = s.chars().take(MAX_NAME_LEN).collect();
        format!("{cut}…")
    }
}

/// A search bot's iteration count as given (`default` when not), within its bounds.
fn iterations(base: &str, given: Option<&str>, default: u32) -> Result<u32, BotSpecError> {
    match given {
        None => Ok(default),
        Some(n) => n
            .parse::<u32>()
            .ok()
            .filter(|n| (1..=MAX_ISMCTS_ITERATIONS).contains(n))
            .ok_or_else(|| BotSpecError::Iterations { base: base.to_string(), got: excerpt(n) }),
    }
}

impl FromStr for BotSpec {
    type Err = BotSpecError;

    fn from_str(name: &str) -> Result<Self, Self::Err> {
        let mut parts = name.split(':');
        let base = parts.next().unwrap_or_default();
        let params: Vec<&str> = parts.by_ref().take(4).collect();
        let simple = |spec: BotSpec| {
            if params.is_empty() {
                Ok(spec)
            } else {
                Err(BotSpecError::NoParameters { base: base.to_string(), name: excerpt(name) })
            }
        };
        match base {
            "random" => simple(BotSpec::Random),
            "uniform" => simple(BotSpec::Uniform),
            "first" => simple(BotSpec::First),
            "heuristic" => simple(BotSpec::Heuristic),
            "precedence" => simple(BotSpec::Precedence),
            "net" => simple(BotSpec::Net),
            "ismcts" => {
                if params.len() > 3 {
                    return Err(BotSpecError::TooManyParts { name: excerpt(name) });
                }
                let defaults = IsmctsConfig::default();
                let iterations = iterations(base, params.first().copied(), defaults.iterations)?;
                let playout = match params.get(1).copied() {
                    None => defaults.playout,
                    Some("random") => Playout::Random,
                    Some("heuristic") => Playout::Heuristic,
                    Some(other) => return Err(BotSpecError::Playout { got: excerpt(other) }),
                };
                let plays = match params.get(2).copied() {
                    None => defaults.infer_plays,
                    Some("plays") => true,
                    Some(other) => return Err(BotSpecError::Option { got: excerpt(other) }),
                };
                Ok(BotSpec::Ismcts { iterations, playout, plays })
            }
            "flat" => {
                if params.len() > 1 {
                    return Err(BotSpecError::TooManyParts { name: excerpt(name) });
                }
                Ok(BotSpec::Flat { iterations: iterations(base, params.first().copied(), FLAT_ITERATIONS)? })
            }
            "flat+net" => {
                if params.len() > 1 {
                    return Err(BotSpecError::TooManyParts { name: excerpt(name) });
                }
                Ok(BotSpec::FlatNet { iterations: iterations(base, params.first().copied(), FLAT_ITERATIONS)? })
            }
            _ => Err(BotSpecError::Unknown { name: excerpt(name) }),
        }
    }
}

impl fmt::Display for BotSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BotSpec::Random => f.write_str("random"),
            BotSpec::Uniform => f.write_str("uniform"),
            BotSpec::First => f.write_str("first"),
            BotSpec::Heuristic => f.write_str("heuristic"),
            BotSpec::Precedence => f.write_str("precedence"),
            BotSpec::Ismcts { iterations, playout, plays } => {
                let playout = match playout {
                    Playout::Random => "random",
                    Playout::Heuristic => "heuristic",
                };
                write!(f, "ismcts:{iterations}:{playout}{}", if *plays { ":plays" } else { "" })
            }
            BotSpec::Flat { iterations } => write!(f, "flat:{iterations}"),
            BotSpec::Net => f.write_str("net"),
            BotSpec::FlatNet { iterations } => write!(f, "flat+net:{iterations}"),
        }
    }
}

impl BotSpec {
    /// The search's configuration, for a search bot's name (callers may add a time limit).
    pub fn ismcts_config(&self) -> Option<IsmctsConfig> {
        match *self {
            BotSpec::Ismcts { iterations, playout, plays } => {
                Some(IsmctsConfig { iterations, playout, infer_plays: plays, ..IsmctsConfig::default() })
            }
            BotSpec::Flat { iterations } => Some(IsmctsConfig { iterations, ..IsmctsConfig::flat_model() }),
            BotSpec::FlatNet { iterations } => Some(IsmctsConfig { iterations, ..IsmctsConfig::flat_net_model() }),
            _ => None,
        }
    }

    /// A new bot of this kind, seeded.
    pub fn build(&self, seed: u64) -> Box<dyn Bot> {
        match *self {
            BotSpec::Random => Box::new(RandomBot::new(seed)),
            BotSpec::Uniform => Box::new(UniformBot::new(seed)),
            BotSpec::First => Box::new(FirstLegalBot),
            BotSpec::Heuristic => Box::new(HeuristicBot::new(seed)),
            BotSpec::Precedence => Box::new(PrecedenceBot),
            BotSpec::Net => Box::new(NetBot::new()),
            BotSpec::Ismcts { .. } | BotSpec::Flat { .. } | BotSpec::FlatNet { .. } => {
                Box::new(IsmctsBot::new(self.ismcts_config().unwrap_or_default(), seed))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_form_of_the_help_parses_and_every_name_has_one() {
        let forms: Vec<&str> = BOT_FORMS.split(", ").collect();
        for form in &forms {
            let name = form.replace("ITERATIONS", "50").replace("PLAYOUTS", "60").replace("PLAYOUT", "heuristic");
            assert!(name.parse::<BotSpec>().is_ok(), "{form} (as {name}) does not parse");
        }
        for name in BOT_NAMES {
            assert!(forms.contains(name), "{name} is missing from BOT_FORMS");
        }
    }

    #[test]
    fn names_round_trip_through_text() {
        for name in [
            "random",
            "uniform",
            "first",
            "heuristic",
            "precedence",
            "net",
            "ismcts:5:random",
            "ismcts:50000:heuristic",
            "ismcts:6000:random:plays",
            "flat:1",
            "flat:50000",
            "flat+net:1",
            "flat+net:3000",
        ] {
            let spec: BotSpec = name.parse().expect(name);
            assert_eq!(spec.to_string(), name);
            assert_eq!(spec.to_string().parse::<BotSpec>(), Ok(spec));
        }
        let default: BotSpec = "ismcts".parse().expect("ismcts");
        assert_eq!(default.to_string().parse::<BotSpec>(), Ok(default));
        let flat: BotSpec = "flat".parse().expect("flat");
        assert_eq!(flat, BotSpec::Flat { iterations: FLAT_ITERATIONS });
        assert_eq!(flat.to_string(), format!("flat:{FLAT_ITERATIONS}"));
        let guided: BotSpec = "flat+net".parse().expect("flat+net");
        assert_eq!(guided, BotSpec::FlatNet { iterations: FLAT_ITERATIONS });
        assert!(guided.ismcts_config().is_some_and(|c| c.flat && c.net_prune > 0));
    }

    #[test]
    fn each_refusal_names_its_reason() {
        let err = |s: &str| s.parse::<BotSpec>().expect_err(s);
        assert!(matches!(err("nobody"), BotSpecError::Unknown { .. }));
        assert!(matches!(err("heuristic:3"), BotSpecError::NoParameters { .. }));
        assert!(matches!(err("net:3"), BotSpecError::NoParameters { .. }));
        assert!(matches!(err("ismcts:0"), BotSpecError::Iterations { .. }));
        assert!(matches!(err("ismcts:x"), BotSpecError::Iterations { .. }));
        assert!(matches!(err("ismcts:4294967295"), BotSpecError::Iterations { .. }));
        assert!(matches!(err("ismcts:50001"), BotSpecError::Iterations { .. }));
        assert!(matches!(err("ismcts:5:greedy"), BotSpecError::Playout { .. }));
        assert!(matches!(err("ismcts:5:random:1"), BotSpecError::Option { .. }));
        assert!(matches!(err("ismcts:5:random:plays:1"), BotSpecError::TooManyParts { .. }));
        assert!(matches!(err("flat:0"), BotSpecError::Iterations { .. }));
        assert!(matches!(err("flat:50001"), BotSpecError::Iterations { .. }));
        assert!(matches!(err("flat:5:heuristic"), BotSpecError::TooManyParts { .. }));
        assert_eq!(
            err("flat:x").to_string(),
            format!("flat iterations must be a whole number from 1 to {MAX_ISMCTS_ITERATIONS} (got 'x')")
        );
        assert_eq!(
            err("ismcts:0").to_string(),
            format!("ismcts iterations must be a whole number from 1 to {MAX_ISMCTS_ITERATIONS} (got '0')")
        );
    }

    #[test]
    fn a_huge_name_is_quoted_as_a_bounded_excerpt() {
        let huge = "x".repeat(100_000);
        let message = huge.parse::<BotSpec>().expect_err("unknown").to_string();
        assert!(message.len() < 300, "{} bytes", message.len());
    }
}
