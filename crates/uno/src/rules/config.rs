//! What a rules file says: `RulesConfig` and its sections, every choice an enum, every
//! missing field the `official` value. Possibly invalid: [`Rules::new`](super::Rules::new)
//! checks it.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::RulesError;
use crate::card::Color;

/// A rule set as written in a file. Validate it with [`Rules::new`](super::Rules::new).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(deny_unknown_fields, default)]
pub struct RulesConfig {
    /// The rule set's name, shown in lists and pages.
    pub name: String,
    /// What the rule set is, in a sentence or two.
    pub description: String,
    /// How many may play.
    pub players: PlayersConfig,
    /// How a round starts.
    pub deal: DealConfig,
    /// The cards.
    pub deck: DeckConfig,
    /// How a turn goes.
    pub play: PlayConfig,
    /// Calling UNO.
    pub uno: UnoConfig,
    /// Points and the match.
    pub scoring: ScoringConfig,
    /// When a round is cut short.
    pub end: EndConfig,
}

/// The `[players]` section: the seats the rules allow.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(deny_unknown_fields, default)]
pub struct PlayersConfig {
    /// The fewest players (at least 2).
    pub min: u32,
    /// The most players (at most 10).
    pub max: u32,
}

/// The `[deal]` section: how a round starts.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(deny_unknown_fields, default)]
pub struct DealConfig {
    /// Cards dealt to each player.
    pub hand_size: u32,
    /// Who plays first.
    pub first_player: FirstPlayer,
    /// The direction of play at the start.
    pub direction: crate::card::Direction,
    /// What the first card turned up does.
    pub first_card: FirstCard,
}

/// The deck as a table of counts: `per_color` copies of each face in every colour listed,
/// and `wild` copies of each wild face in the whole deck.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(deny_unknown_fields, default)]
pub struct DeckConfig {
    /// The colours, in order (each colour gets every card of `per_color`).
    pub colors: Vec<Color>,
    /// Copies of each coloured face per colour, by face key (`0`–`9`, `skip`, `reverse`, `draw_two`).
    pub per_color: BTreeMap<String, u32>,
    /// Copies of each wild, by key (`wild`, `wild_draw_four`).
    pub wild: BTreeMap<String, u32>,
}

/// The `[play]` section: how a turn goes.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(deny_unknown_fields, default)]
pub struct PlayConfig {
    /// What a player who draws does next.
    pub draw: DrawRule,
    /// Whether a player who can play must.
    pub forced_play: ForcedPlay,
    /// Which draw cards stack on a pending penalty.
    pub stacking: Stacking,
    /// When a Wild Draw Four may be played and challenged.
    pub wild_draw_four: WildDrawFourRule,
    /// What Reverse does with two players.
    pub two_players: TwoPlayerRule,
    /// Whether identical cards may be played out of turn.
    pub jump_in: JumpIn,
    /// Whether 7s swap hands and 0s pass them round.
    pub seven_zero: SevenZero,
    /// What happens when the draw pile runs out.
    pub exhausted_draw_pile: Exhausted,
    /// Whether several cards of the same number may be played in one turn.
    pub multi_play: MultiPlay,
    /// Stop the game after this many turns (seed 004: 100). Absent: no cap.
    pub turn_cap: Option<u32>,
}

/// The `[uno]` section: calling UNO and its penalties.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(deny_unknown_fields, default)]
pub struct UnoConfig {
    /// Whether players call UNO.
    pub call: UnoCall,
    /// Cards drawn by a player caught with one card who did not call UNO.
    pub penalty: u32,
    /// Cards drawn by a player who calls UNO when there is nothing to call or catch
    /// (seed 003: "If there's no one, the yelling player draws instead"). 0: such a call is refused.
    pub false_call_penalty: u32,
}

/// When a game that nobody wins stops.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(deny_unknown_fields, default)]
pub struct EndConfig {
    /// A round that reaches this many turns ends the game as a stalemate
    /// (`EndReason::MaxTurns`): some rule sets can loop for ever (two players who can only draw
    /// the one reshuffled card and play it back). Unlike `play.turn_cap`, a rule some games
    /// state, this is a guard: set high enough that no real game meets it.
    pub max_turns: u32,
}

/// Turns a round may last when a rules file does not say (see [`EndConfig::max_turns`]).
pub const DEFAULT_MAX_TURNS: u32 = 10_000;

/// The `[scoring]` section: what each card left in a hand is worth, and the match target.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(deny_unknown_fields, default)]
pub struct ScoringConfig {
    /// Points for a digit card: its face value, or a fixed number.
    pub digits: DigitPoints,
    /// Points for a Skip.
    pub skip: u32,
    /// Points for a Reverse.
    pub reverse: u32,
    /// Points for a Draw Two.
    pub draw_two: u32,
    /// Points for a Wild.
    pub wild: u32,
    /// Points for a Wild Draw Four.
    pub wild_draw_four: u32,
    /// Play rounds until a player's total reaches this (absent: 500, the official target);
    /// `None`, written `target = "one_round"`, makes one round the whole game.
    #[serde(with = "match_target")]
    #[cfg_attr(feature = "ts", ts(type = r#"number | "one_round""#))]
    pub target: Option<u32>,
}

/// `scoring.target` in a file: a number of points, or `"one_round"` (TOML has no null, so
/// `None` needs a name to survive being written out and read back).
mod match_target {
    use serde::{Deserialize, Deserializer, Serialize, Serializer};

    const ONE_ROUND: &str = "one_round";

    #[derive(Serialize, Deserialize)]
    #[serde(untagged)]
    enum Written {
        Points(u32),
        Name(String),
    }

    pub fn serialize<S: Serializer>(target: &Option<u32>, s: S) -> Result<S::Ok, S::Error> {
        match target {
            Some(points) => Written::Points(*points),
            None => Written::Name(ONE_ROUND.to_string()),
        }
        .serialize(s)
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Option<u32>, D::Error> {
        match Option::<Written>::deserialize(d)? {
            Some(Written::Points(points)) => Ok(Some(points)),
            Some(Written::Name(name)) if name == ONE_ROUND => Ok(None),
            // JSON's null says the same.
            None => Ok(None),
            Some(Written::Name(other)) => Err(serde::de::Error::custom(format!(
                "scoring.target: expected a number of points or \"{ONE_ROUND}\", found \"{other}\""
            ))),
        }
    }
}

/// What a digit card is worth.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum DigitPoints {
    /// Its face value (official).
    FaceValue,
    /// The same number for every digit.
    #[serde(untagged)]
    Fixed(u32),
}

/// In TypeScript: `"face_value"` or a number, as serde writes it.
#[cfg(feature = "ts")]
impl ts_rs::TS for DigitPoints {
    type WithoutGenerics = DigitPoints;
    type OptionInnerType = DigitPoints;
    fn name(_: &ts_rs::Config) -> String {
        "DigitPoints".to_string()
    }
    fn inline(_: &ts_rs::Config) -> String {
        r#""face_value" | number"#.to_string()
    }
    fn decl(cfg: &ts_rs::Config) -> String {
        format!("type DigitPoints = {};", Self::inline(cfg))
    }
    fn decl_concrete(cfg: &ts_rs::Config) -> String {
        Self::decl(cfg)
    }
}

/// Read by hand so that a wrong value is explained in the file's terms, not serde's.
impl<'de> Deserialize<'de> for DigitPoints {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct Points;
        const EXPECTED: &str = "\"face_value\" or a whole number of points";
        impl serde::de::Visitor<'_> for Points {
            type Value = DigitPoints;
            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str(EXPECTED)
            }
            fn visit_str<E: serde::de::Error>(self, s: &str) -> Result<DigitPoints, E> {
                if s == "face_value" {
                    return Ok(DigitPoints::FaceValue);
                }
                let shown: String = s.chars().take(32).collect();
                let more = if shown.len() < s.len() { "…" } else { "" };
                Err(E::custom(format!("scoring.digits must be {EXPECTED} (got \"{shown}{more}\")")))
            }
            fn visit_u64<E: serde::de::Error>(self, n: u64) -> Result<DigitPoints, E> {
                u32::try_from(n)
                    .map(DigitPoints::Fixed)
                    .map_err(|_| E::custom(format!("scoring.digits: {n} points is more than {}", u32::MAX)))
            }
            fn visit_i64<E: serde::de::Error>(self, n: i64) -> Result<DigitPoints, E> {
                u64::try_from(n)
                    .map_err(|_| E::custom(format!("scoring.digits must be {EXPECTED} (got {n})")))
                    .and_then(|n| self.visit_u64(n))
            }
        }
        deserializer.deserialize_any(Points)
    }
}

/// Who plays first. Seats are numbered in the direction of play, so "left of the dealer"
/// (official) and "right of the dealer, play passing to the right" (seed 004) both mean the
/// seat after a randomly chosen dealer; they differ only in how the direction is named.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "snake_case")]
pub enum FirstPlayer {
    /// The seat after a randomly chosen dealer. Files may also name it as the official rules
    /// do (`left_of_dealer`) or as seed 004 does (`right_of_dealer`).
    #[serde(alias = "left_of_dealer", alias = "right_of_dealer")]
    AfterDealer,
    /// Seat 0 starts (seeds 000 and 002: "Player 1 first").
    Seat0,
}

/// What the first card turned up does.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "snake_case")]
pub enum FirstCard {
    /// Skip skips the first player, Reverse flips the direction, Draw Two makes the first
    /// player draw 2 and lose the turn, Wild lets the first player name the colour, Wild Draw
    /// Four goes back into the deck, which is reshuffled.
    Official,
    /// The card only sets colour and face (seed 004). A wild still needs a colour named.
    NoEffect,
    /// Cards are turned until a number card comes up; the others go back and are reshuffled.
    RedrawUntilNumber,
    /// As `official`, except that every wild (Wild and Wild Draw Four) goes back into the deck,
    /// which is reshuffled (seed 003: "If one is the first card from the Discard Pile, return
    /// them to the Draw Pile, shuffle it, and try to get first card").
    RedrawWilds,
    /// As RLCard's UNO turns it (`rlcard.games.uno`): a Wild Draw Four goes back into the
    /// deck, which is reshuffled; a Wild's colour is drawn at random (nobody names it); a
    /// Draw Two makes the first player draw 2, and they still play; a Skip and a Reverse act
    /// as under `Official`.
    Rlcard,
}

/// What a player who draws on their turn may do.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "snake_case")]
pub enum DrawRule {
    /// Draw one; then play that card (only that one) if it matches, or keep it and pass.
    DrawOneMayPlay,
    /// Draw one; if it matches it must be played at once, else the turn ends (seed 002).
    DrawOneMustPlay,
    /// Draw one and the turn is over (seeds 000 and 004).
    DrawOneEndTurn,
    /// Draw until a matching card comes up (or the pile is gone); then play it or keep it.
    DrawUntilPlayable,
    /// Draw one; a wild, or a card of the colour in play, is played at once (RLCard's UNO):
    /// a wild names a colour drawn at random and has no effect of its own (a Wild Draw Four
    /// drawn so makes nobody draw), a coloured card acts as played. Any other card, one
    /// matching only by number or symbol included, is kept and the turn ends.
    DrawOneAutoPlay,
}

/// Whether a player holding a playable card may draw instead.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "snake_case")]
pub enum ForcedPlay {
    /// A player may draw even when holding a playable card (official).
    Optional,
    /// A player holding a playable card must play one.
    Required,
    /// As `Required`, and which card is not the player's choice either: seed 000's precedence
    /// list picks it (the `csce322` preset). The engine's legal actions are then the
    /// precedence's move alone ([`Game::precedence_move`](crate::Game::precedence_move)), so
    /// every player, person or bot, makes it.
    Precedence,
}

impl ForcedPlay {
    /// Whether a player holding a playable card must play one (`Required` or `Precedence`).
    pub fn must_play(self) -> bool {
        matches!(self, ForcedPlay::Required | ForcedPlay::Precedence)
    }

    /// Whether seed 000's precedence list decides every move (`Precedence`): a player then has
    /// nothing to choose, so there is no decision to value or to ask a person for.
    pub fn precedence_decides(self) -> bool {
        self == ForcedPlay::Precedence
    }
}

/// Whether a draw penalty may be passed on by playing another draw card on it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "snake_case")]
pub enum Stacking {
    /// Not played.
    Off,
    /// Draw Two on Draw Two.
    DrawTwo,
    /// Wild Draw Four on Wild Draw Four.
    WildDrawFour,
    /// Both of the above, each on its own kind.
    Both,
    /// Any draw card on any draw card (a Draw Two on a Wild Draw Four must match its colour).
    Cross,
}

/// When a Wild Draw Four may be played, and whether it can be challenged.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "snake_case")]
pub enum WildDrawFourRule {
    /// Playable at any time; no challenge.
    Unrestricted,
    /// Refused while the player holds a card of the colour in play; no challenge.
    Restricted,
    /// Playable at any time, but the next player may challenge: if the player held a card of
    /// the colour in play they draw 4 instead; otherwise the challenger draws 6 (official).
    Challenge,
    /// Playable only when no other card of the hand can be played; no challenge (RLCard's UNO).
    LastResort,
}

/// What a Reverse does at a table of two.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "snake_case")]
pub enum TwoPlayerRule {
    /// With two players a Reverse acts as a Skip (official).
    ReverseSkips,
    /// A Reverse only flips the direction, whatever the number of players.
    ReverseReverses,
}

/// Whether a card identical to the top card may be played out of turn.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "snake_case")]
pub enum JumpIn {
    /// Not played.
    Off,
    /// A player holding a card identical to the top card may play it out of turn.
    On,
}

/// The 7–0 house rule.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "snake_case")]
pub enum SevenZero {
    /// Not played.
    Off,
    /// Playing a 7 swaps hands with a chosen player; playing a 0 passes every hand along.
    On,
}

/// Whether a player may play several cards in one turn (`docs/rules.md`, "Several cards of the
/// same number").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "snake_case")]
pub enum MultiPlay {
    /// One card a turn.
    Off,
    /// After playing a number card, the player may play further cards of that number, of any
    /// colour, one at a time, and ends the turn with a pass.
    SameNumber,
}

/// What an empty draw pile does.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "snake_case")]
pub enum Exhausted {
    /// Shuffle the discard pile, less its top card, into a new draw pile.
    Reshuffle,
    /// Nothing more can be drawn.
    NoReshuffle,
}

/// Whether players call UNO.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "snake_case")]
pub enum UnoCall {
    /// Not played.
    Off,
    /// A player left with one card must call UNO before the next player begins a turn, or
    /// anyone may catch them and they draw `penalty` cards.
    Required,
}

impl Default for RulesConfig {
    fn default() -> Self {
        RulesConfig {
            name: "custom".into(),
            description: String::new(),
            players: PlayersConfig::default(),
            deal: DealConfig::default(),
            deck: DeckConfig::default(),
            play: PlayConfig::default(),
            uno: UnoConfig::default(),
            scoring: ScoringConfig::default(),
            end: EndConfig::default(),
        }
    }
}

impl Default for PlayersConfig {
    fn default() -> Self {
        PlayersConfig { min: 2, max: 10 }
    }
}

impl Default for DealConfig {
    fn default() -> Self {
        DealConfig {
            hand_size: 7,
            first_player: FirstPlayer::AfterDealer,
            direction: crate::card::Direction::Clockwise,
            first_card: FirstCard::Official,
        }
    }
}

impl Default for DeckConfig {
    fn default() -> Self {
        let mut per_color = BTreeMap::new();
        per_color.insert("0".to_string(), 1);
        for d in 1..=9 {
            per_color.insert(d.to_string(), 2);
        }
        for k in ["skip", "reverse", "draw_two"] {
            per_color.insert(k.to_string(), 2);
        }
        let mut wild = BTreeMap::new();
        wild.insert("wild".to_string(), 4);
        wild.insert("wild_draw_four".to_string(), 4);
        DeckConfig { colors: Color::ALL.to_vec(), per_color, wild }
    }
}

impl Default for PlayConfig {
    fn default() -> Self {
        PlayConfig {
            draw: DrawRule::DrawOneMayPlay,
            forced_play: ForcedPlay::Optional,
            stacking: Stacking::Off,
            wild_draw_four: WildDrawFourRule::Challenge,
            two_players: TwoPlayerRule::ReverseSkips,
            jump_in: JumpIn::Off,
            seven_zero: SevenZero::Off,
            multi_play: MultiPlay::Off,
            exhausted_draw_pile: Exhausted::Reshuffle,
            turn_cap: None,
        }
    }
}

impl Default for UnoConfig {
    fn default() -> Self {
        UnoConfig { call: UnoCall::Required, penalty: 2, false_call_penalty: 0 }
    }
}

impl Default for EndConfig {
    fn default() -> Self {
        EndConfig { max_turns: DEFAULT_MAX_TURNS }
    }
}

impl Default for ScoringConfig {
    fn default() -> Self {
        ScoringConfig {
            digits: DigitPoints::FaceValue,
            skip: 20,
            reverse: 20,
            draw_two: 20,
            wild: 50,
            wild_draw_four: 50,
            target: Some(500),
        }
    }
}

impl RulesConfig {
    /// Reads a rules file in TOML.
    ///
    /// # Errors
    /// [`RulesError::Syntax`] when the text is not valid TOML or does not fit [`RulesConfig`].
    pub fn from_toml(text: &str) -> Result<RulesConfig, RulesError> {
        toml::from_str(text).map_err(|e| RulesError::Syntax(e.to_string()))
    }

    /// Reads a rules file in JSON.
    ///
    /// # Errors
    /// [`RulesError::Syntax`] when the text is not valid JSON or does not fit [`RulesConfig`].
    pub fn from_json(text: &str) -> Result<RulesConfig, RulesError> {
        serde_json::from_str(text).map_err(|e| RulesError::Syntax(e.to_string()))
    }

    /// Reads TOML or JSON, whichever the text is (JSON starts with `{`).
    ///
    /// # Errors
    /// [`RulesError::Syntax`], as [`RulesConfig::from_toml`] or [`RulesConfig::from_json`].
    pub fn parse(text: &str) -> Result<RulesConfig, RulesError> {
        if text.trim_start().starts_with('{') {
            Self::from_json(text)
        } else {
            Self::from_toml(text)
        }
    }

    /// The configuration as a TOML rules file.
    pub fn to_toml(&self) -> String {
        // A config is plain data with string keys: serializing it cannot fail.
        toml::to_string_pretty(self).unwrap_or_default()
    }

    /// Seed 002's five counts as a deck: four colours, every digit `digits` times per colour,
    /// Skip, Reverse and Draw Two `specials` times each per colour, and `wilds` plain wilds.
    pub fn deck_from_counts(digits: u32, specials: u32, wilds: u32) -> DeckConfig {
        let mut per_color = BTreeMap::new();
        for d in 0..=9 {
            per_color.insert(d.to_string(), digits);
        }
        for k in ["skip", "reverse", "draw_two"] {
            per_color.insert(k.to_string(), specials);
        }
        let mut wild = BTreeMap::new();
        wild.insert("wild".to_string(), wilds);
        wild.insert("wild_draw_four".to_string(), 0);
        DeckConfig { colors: Color::ALL.to_vec(), per_color, wild }
    }
}
