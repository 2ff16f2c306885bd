//! Rules as data: a `RulesConfig` (what a TOML or JSON file says, possibly invalid) is
//! validated once into `Rules` (what the game runs on).
//!
//! Every choice is an enum. Missing sections take the `official` values, so a house-rules
//! file only needs to name what it changes.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use thiserror::Error;

use crate::card::{Card, Color, Face};

/// The most seats a table can have.
pub const MAX_PLAYERS: usize = 10;
/// Copies of one card kind a deck may hold; keeps hostile rules files from allocating wildly.
pub const MAX_COPIES: u32 = 64;
/// The highest match target: a match to it ends in a bounded number of rounds.
pub const MAX_TARGET: u32 = 10_000;
/// The longest turn cap.
pub const MAX_TURN_CAP: u32 = 100_000;
/// The most points one card may score: with [`MAX_COPIES`] and every colour, a round's score
/// stays far below `u32::MAX`, so totals cannot wrap.
pub const MAX_CARD_POINTS: u32 = 1_000;
/// The most cards an UNO penalty may draw.
pub const MAX_PENALTY: u32 = 50;
/// The longest rules name, in characters (it is shown in lists and pages).
pub const MAX_NAME_CHARS: usize = 64;
/// The longest rules description, in characters.
pub const MAX_DESCRIPTION_CHARS: usize = 1_000;

/// A rule set as written in a file. Validate it with [`Rules::new`].
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct RulesConfig {
    pub name: String,
    pub description: String,
    pub players: PlayersConfig,
    pub deal: DealConfig,
    pub deck: DeckConfig,
    pub play: PlayConfig,
    pub uno: UnoConfig,
    pub scoring: ScoringConfig,
    pub end: EndConfig,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct PlayersConfig {
    pub min: u32,
    pub max: u32,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct DealConfig {
    pub hand_size: u32,
    pub first_player: FirstPlayer,
    pub direction: crate::card::Direction,
    pub first_card: FirstCard,
}

/// The deck as a table of counts: `per_color` copies of each face in every colour listed,
/// and `wild` copies of each wild face in the whole deck.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct DeckConfig {
    pub colors: Vec<Color>,
    pub per_color: BTreeMap<String, u32>,
    pub wild: BTreeMap<String, u32>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct PlayConfig {
    pub draw: DrawRule,
    pub forced_play: ForcedPlay,
    pub stacking: Stacking,
    pub wild_draw_four: WildDrawFourRule,
    pub two_players: TwoPlayerRule,
    pub jump_in: JumpIn,
    pub seven_zero: SevenZero,
    pub exhausted_draw_pile: Exhausted,
    pub multi_play: MultiPlay,
    /// Stop the game after this many turns (seed 004: 100). Absent: no cap.
    pub turn_cap: Option<u32>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct UnoConfig {
    pub call: UnoCall,
    /// Cards drawn by a player caught with one card who did not call UNO.
    pub penalty: u32,
    /// Cards drawn by a player who calls UNO when there is nothing to call or catch
    /// (seed 003: "If there's no one, the yelling player draws instead"). 0: such a call is refused.
    pub false_call_penalty: u32,
}

/// When a game that nobody wins stops.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
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

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct ScoringConfig {
    /// Points for a digit card: its face value, or a fixed number.
    pub digits: DigitPoints,
    pub skip: u32,
    pub reverse: u32,
    pub draw_two: u32,
    pub wild: u32,
    pub wild_draw_four: u32,
    /// Play rounds until a player's total reaches this (absent: 500, the official target);
    /// `None`, written `target = "one_round"`, makes one round the whole game.
    #[serde(with = "match_target")]
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

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum DigitPoints {
    FaceValue,
    #[serde(untagged)]
    Fixed(u32),
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
#[serde(rename_all = "snake_case")]
pub enum FirstPlayer {
    LeftOfDealer,
    RightOfDealer,
    /// Seat 0 starts (seeds 000 and 002: "Player 1 first").
    Seat0,
}

/// What the first card turned up does.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
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
}

/// What a player who draws on their turn may do.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
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
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ForcedPlay {
    /// A player may draw even when holding a playable card (official).
    Optional,
    /// A player holding a playable card must play one.
    Required,
}

/// Whether a draw penalty may be passed on by playing another draw card on it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Stacking {
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

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum WildDrawFourRule {
    /// Playable at any time; no challenge.
    Unrestricted,
    /// Refused while the player holds a card of the colour in play; no challenge.
    Restricted,
    /// Playable at any time, but the next player may challenge: if the player held a card of
    /// the colour in play they draw 4 instead; otherwise the challenger draws 6 (official).
    Challenge,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TwoPlayerRule {
    /// With two players a Reverse acts as a Skip (official).
    ReverseSkips,
    /// A Reverse only flips the direction, whatever the number of players.
    ReverseReverses,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum JumpIn {
    Off,
    /// A player holding a card identical to the top card may play it out of turn.
    On,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SevenZero {
    Off,
    /// Playing a 7 swaps hands with a chosen player; playing a 0 passes every hand along.
    On,
}

/// Whether a player may play several cards in one turn (`docs/rules.md`, "Several cards of the
/// same number").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum MultiPlay {
    Off,
    /// After playing a number card, the player may play further cards of that number, of any
    /// colour, one at a time, and ends the turn with a pass.
    SameNumber,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Exhausted {
    /// Shuffle the discard pile, less its top card, into a new draw pile.
    Reshuffle,
    /// Nothing more can be drawn.
    NoReshuffle,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum UnoCall {
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
            first_player: FirstPlayer::LeftOfDealer,
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
            exhausted_draw_pile: Exhausted::Reshuffle,
            multi_play: MultiPlay::Off,
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
    pub fn from_toml(text: &str) -> Result<RulesConfig, RulesError> {
        toml::from_str(text).map_err(|e| RulesError::Syntax(e.to_string()))
    }

    /// Reads a rules file in JSON.
    pub fn from_json(text: &str) -> Result<RulesConfig, RulesError> {
        serde_json::from_str(text).map_err(|e| RulesError::Syntax(e.to_string()))
    }

    /// Reads TOML or JSON, whichever the text is (JSON starts with `{`).
    pub fn parse(text: &str) -> Result<RulesConfig, RulesError> {
        if text.trim_start().starts_with('{') {
            Self::from_json(text)
        } else {
            Self::from_toml(text)
        }
    }

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

/// Why a rules file cannot make a game.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum RulesError {
    #[error("rules file: {0}")]
    Syntax(String),
    #[error("unknown preset '{0}' (known: {known})", known = PRESET_NAMES.join(", "))]
    UnknownPreset(String),
    #[error("deck.colors is empty: a deck needs at least one colour")]
    NoColors,
    #[error("deck.colors lists {0} twice")]
    DuplicateColor(Color),
    #[error("deck.per_color: unknown face '{0}' (expected 0-9, skip, reverse, draw_two)")]
    UnknownColoredFace(String),
    #[error("deck.wild: unknown wild '{0}' (expected wild, wild_draw_four)")]
    UnknownWildFace(String),
    #[error("deck: {count} copies of {face} is more than the limit of {MAX_COPIES}")]
    TooManyCopies { face: String, count: u32 },
    #[error("the deck has no card")]
    EmptyDeck,
    #[error("players: min {min} and max {max} must satisfy 2 <= min <= max <= {MAX_PLAYERS}")]
    PlayersOutOfRange { min: u32, max: u32 },
    #[error("deal.hand_size must be at least 1")]
    EmptyHands,
    #[error("these rules seat {min} to {max} players, not {players}")]
    PlayerCount { players: usize, min: usize, max: usize },
    #[error("deal.hand_size {hand_size} is too large for {players} players: dealing it and turning up the first card needs {needed} cards, the deck has {have}")]
    DeckTooSmall { players: u32, hand_size: u32, needed: u32, have: u32 },
    #[error("deal.first_card = redraw_until_number needs number cards in the deck")]
    NoNumberCards,
    #[error("play.multi_play = same_number needs number cards in the deck")]
    MultiPlayWithoutNumbers,
    #[error("deal.first_card = official sends every Wild Draw Four back, and the deck has nothing else")]
    OnlyWildDrawFours,
    #[error("play.turn_cap must be at least 1")]
    ZeroTurnCap,
    #[error("scoring.target must be at least 1")]
    ZeroTarget,
    #[error("end.max_turns must be at least 1")]
    ZeroMaxTurns,
    /// A number above its documented maximum (kept small so no game runs unbounded or wraps).
    #[error("{field} is {value}, more than the limit of {max}")]
    OverLimit { field: &'static str, value: u64, max: u64 },
}

/// The bounds on every number and text a rules file may hold.
fn check_limits(config: &RulesConfig) -> Result<(), RulesError> {
    let over = |field: &'static str, value: u64, max: u64| {
        if value > max {
            Err(RulesError::OverLimit { field, value, max })
        } else {
            Ok(())
        }
    };
    over("name (characters)", config.name.chars().count() as u64, MAX_NAME_CHARS as u64)?;
    over("description (characters)", config.description.chars().count() as u64, MAX_DESCRIPTION_CHARS as u64)?;
    over("scoring.target", config.scoring.target.unwrap_or(0).into(), MAX_TARGET.into())?;
    over("play.turn_cap", config.play.turn_cap.unwrap_or(0).into(), MAX_TURN_CAP.into())?;
    over("end.max_turns", config.end.max_turns.into(), MAX_TURN_CAP.into())?;
    over("uno.penalty", config.uno.penalty.into(), MAX_PENALTY.into())?;
    over("uno.false_call_penalty", config.uno.false_call_penalty.into(), MAX_PENALTY.into())?;
    let s = &config.scoring;
    if let DigitPoints::Fixed(p) = s.digits {
        over("scoring.digits", p.into(), MAX_CARD_POINTS.into())?;
    }
    for (field, p) in [
        ("scoring.skip", s.skip),
        ("scoring.reverse", s.reverse),
        ("scoring.draw_two", s.draw_two),
        ("scoring.wild", s.wild),
        ("scoring.wild_draw_four", s.wild_draw_four),
    ] {
        over(field, p.into(), MAX_CARD_POINTS.into())?;
    }
    Ok(())
}

/// A validated rule set. Build it with [`Rules::new`] or [`Rules::preset`].
#[derive(Clone, Debug, PartialEq)]
pub struct Rules {
    config: RulesConfig,
    deck: Vec<Card>,
    colors: Vec<Color>,
    points: [u32; Card::KINDS],
    /// What each card does: `[more than two players, two players]`, by card index.
    effects: Box<crate::effect::EffectTables>,
}

impl Rules {
    pub fn new(config: RulesConfig) -> Result<Rules, RulesError> {
        let colors = config.deck.colors.clone();
        if colors.is_empty() {
            return Err(RulesError::NoColors);
        }
        for (i, c) in colors.iter().enumerate() {
            if colors[..i].contains(c) {
                return Err(RulesError::DuplicateColor(*c));
            }
        }
        let mut deck = Vec::new();
        for &color in &colors {
            for (key, &count) in &config.deck.per_color {
                let face = Face::from_key(key)
                    .filter(|f| !f.is_wild())
                    .ok_or_else(|| RulesError::UnknownColoredFace(key.clone()))?;
                if count > MAX_COPIES {
                    return Err(RulesError::TooManyCopies { face: key.clone(), count });
                }
                if let Some(card) = Card::colored(color, face) {
                    deck.extend(std::iter::repeat_n(card, count as usize));
                }
            }
        }
        for (key, &count) in &config.deck.wild {
            let card = match Face::from_key(key) {
                Some(Face::Wild) => Card::WILD,
                Some(Face::WildDrawFour) => Card::WILD_DRAW_FOUR,
                _ => return Err(RulesError::UnknownWildFace(key.clone())),
            };
            if count > MAX_COPIES {
                return Err(RulesError::TooManyCopies { face: key.clone(), count });
            }
            deck.extend(std::iter::repeat_n(card, count as usize));
        }
        deck.sort();
        if deck.is_empty() {
            return Err(RulesError::EmptyDeck);
        }
        let (min, max) = (config.players.min, config.players.max);
        if min < 2 || min > max || max as usize > MAX_PLAYERS {
            return Err(RulesError::PlayersOutOfRange { min, max });
        }
        let hand_size = config.deal.hand_size;
        if hand_size == 0 {
            return Err(RulesError::EmptyHands);
        }
        let needed = min.saturating_mul(hand_size).saturating_add(1);
        if needed as usize > deck.len() {
            return Err(RulesError::DeckTooSmall { players: min, hand_size, needed, have: deck.len() as u32 });
        }
        if config.deal.first_card == FirstCard::RedrawUntilNumber
            && !deck.iter().any(|c| matches!(c.face(), Face::Digit(_)))
        {
            return Err(RulesError::NoNumberCards);
        }
        if config.play.multi_play == MultiPlay::SameNumber && !deck.iter().any(|c| matches!(c.face(), Face::Digit(_))) {
            return Err(RulesError::MultiPlayWithoutNumbers);
        }
        if config.deal.first_card == FirstCard::Official && deck.iter().all(|&c| c == Card::WILD_DRAW_FOUR) {
            return Err(RulesError::OnlyWildDrawFours);
        }
        if config.play.turn_cap == Some(0) {
            return Err(RulesError::ZeroTurnCap);
        }
        if config.scoring.target == Some(0) {
            return Err(RulesError::ZeroTarget);
        }
        if config.end.max_turns == 0 {
            return Err(RulesError::ZeroMaxTurns);
        }
        check_limits(&config)?;
        let s = &config.scoring;
        let mut points = [0u32; Card::KINDS];
        for card in Card::all() {
            points[card.index()] = match card.face() {
                Face::Digit(d) => match s.digits {
                    DigitPoints::FaceValue => d as u32,
                    DigitPoints::Fixed(p) => p,
                },
                Face::Skip => s.skip,
                Face::Reverse => s.reverse,
                Face::DrawTwo => s.draw_two,
                Face::Wild => s.wild,
                Face::WildDrawFour => s.wild_draw_four,
            };
        }
        let p = &config.play;
        let effects = Box::new(crate::effect::derive(
            config.deal.first_card,
            p.stacking,
            p.wild_draw_four,
            p.two_players,
            p.seven_zero,
            p.multi_play,
        ));
        Ok(Rules { config, deck, colors, points, effects })
    }

    /// A named preset (see [`PRESET_NAMES`]).
    pub fn preset(name: &str) -> Result<Rules, RulesError> {
        Rules::new(preset_config(name)?)
    }

    /// What playing `card` does at a table of `players`.
    #[inline]
    pub fn effect(&self, card: Card, players: usize) -> crate::effect::CardEffect {
        self.effects[usize::from(players == 2)][card.index()]
    }

    /// Every card kind's effect at a table of `players`, by card index.
    pub fn effects(&self, players: usize) -> &[crate::effect::CardEffect; Card::KINDS] {
        &self.effects[usize::from(players == 2)]
    }

    pub fn config(&self) -> &RulesConfig {
        &self.config
    }
    pub fn name(&self) -> &str {
        &self.config.name
    }
    /// Every card of the deck, sorted by card index.
    pub fn deck(&self) -> &[Card] {
        &self.deck
    }
    /// The colours in play, in the order the rules list them.
    pub fn colors(&self) -> &[Color] {
        &self.colors
    }
    pub fn min_players(&self) -> usize {
        self.config.players.min as usize
    }
    pub fn max_players(&self) -> usize {
        self.config.players.max as usize
    }
    pub fn hand_size(&self) -> usize {
        self.config.deal.hand_size as usize
    }
    pub fn first_player(&self) -> FirstPlayer {
        self.config.deal.first_player
    }
    pub fn first_card(&self) -> FirstCard {
        self.config.deal.first_card
    }
    pub fn direction(&self) -> crate::card::Direction {
        self.config.deal.direction
    }
    pub fn draw_rule(&self) -> DrawRule {
        self.config.play.draw
    }
    pub fn forced_play(&self) -> ForcedPlay {
        self.config.play.forced_play
    }
    pub fn stacking(&self) -> Stacking {
        self.config.play.stacking
    }
    pub fn wild_draw_four(&self) -> WildDrawFourRule {
        self.config.play.wild_draw_four
    }
    pub fn two_players(&self) -> TwoPlayerRule {
        self.config.play.two_players
    }
    pub fn jump_in(&self) -> JumpIn {
        self.config.play.jump_in
    }
    pub fn seven_zero(&self) -> SevenZero {
        self.config.play.seven_zero
    }
    pub fn multi_play(&self) -> MultiPlay {
        self.config.play.multi_play
    }
    pub fn exhausted(&self) -> Exhausted {
        self.config.play.exhausted_draw_pile
    }
    pub fn turn_cap(&self) -> Option<u32> {
        self.config.play.turn_cap
    }
    /// Turns after which a round ends the game as a stalemate (see [`EndConfig::max_turns`]).
    pub fn max_turns(&self) -> u32 {
        self.config.end.max_turns
    }
    pub fn uno_call(&self) -> UnoCall {
        self.config.uno.call
    }
    pub fn uno_penalty(&self) -> u32 {
        self.config.uno.penalty
    }
    pub fn false_call_penalty(&self) -> u32 {
        self.config.uno.false_call_penalty
    }
    pub fn target(&self) -> Option<u32> {
        self.config.scoring.target
    }
    /// Points a card in a loser's hand is worth to the round's winner.
    #[inline]
    pub fn points(&self, card: Card) -> u32 {
        self.points[card.index()]
    }
    /// Whether the deck can seat `players` and deal them.
    pub fn check_players(&self, players: usize) -> Result<(), RulesError> {
        if players < self.min_players() || players > self.max_players() {
            return Err(RulesError::PlayerCount { players, min: self.min_players(), max: self.max_players() });
        }
        let needed = players * self.hand_size() + 1;
        if needed > self.deck.len() {
            return Err(RulesError::DeckTooSmall {
                players: players as u32,
                hand_size: self.hand_size() as u32,
                needed: needed as u32,
                have: self.deck.len() as u32,
            });
        }
        Ok(())
    }
}

/// The presets compiled into the engine, in the order `tabletop uno rules --list` shows them.
pub const PRESET_NAMES: [&str; 5] = ["official", "uno-engine", "cs410", "two-color", "csce322"];

const PRESET_FILES: [(&str, &str); 5] = [
    ("official", include_str!("../presets/official.toml")),
    ("uno-engine", include_str!("../presets/uno-engine.toml")),
    ("cs410", include_str!("../presets/cs410.toml")),
    ("two-color", include_str!("../presets/two-color.toml")),
    ("csce322", include_str!("../presets/csce322.toml")),
];

/// The TOML text of a preset, as shipped.
pub fn preset_toml(name: &str) -> Result<&'static str, RulesError> {
    PRESET_FILES
        .iter()
        .find(|(n, _)| *n == name)
        .map(|(_, t)| *t)
        .ok_or_else(|| RulesError::UnknownPreset(name.to_string()))
}

/// The configuration of a preset.
pub fn preset_config(name: &str) -> Result<RulesConfig, RulesError> {
    RulesConfig::from_toml(preset_toml(name)?)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_preset_is_valid_and_round_trips_through_toml_and_json() {
        for name in PRESET_NAMES {
            let rules = Rules::preset(name).unwrap_or_else(|e| panic!("{name}: {e}"));
            assert_eq!(rules.name(), name);
            let toml = rules.config().to_toml();
            assert_eq!(RulesConfig::from_toml(&toml).as_ref(), Ok(rules.config()), "{name}");
            let json = serde_json::to_string(rules.config()).expect("json");
            assert_eq!(RulesConfig::parse(&json).as_ref(), Ok(rules.config()), "{name}");
        }
    }

    #[test]
    fn a_match_target_is_points_or_one_round_and_nothing_else() {
        let target = |text: &str| RulesConfig::from_toml(text).map(|c| c.scoring.target);
        assert_eq!(target(""), Ok(Some(500)), "absent: the official target");
        assert_eq!(target("[scoring]\ntarget = 200"), Ok(Some(200)));
        assert_eq!(target("[scoring]\ntarget = \"one_round\""), Ok(None));
        assert_eq!(RulesConfig::from_json(r#"{"scoring": {"target": null}}"#).map(|c| c.scoring.target), Ok(None));
        let err = target("[scoring]\ntarget = \"forever\"").expect_err("an unknown name");
        assert!(err.to_string().contains("one_round"), "{err}");
        assert_eq!(Rules::preset("two-color").map(|r| r.target()), Ok(None), "seed 004 plays one round");
    }

    #[test]
    fn a_player_count_the_rules_do_not_seat_says_so() {
        let rules = Rules::preset("two-color").expect("preset");
        let err = rules.check_players(5).expect_err("seed 004 seats 2-4");
        assert_eq!(err, RulesError::PlayerCount { players: 5, min: 2, max: 4 });
        assert_eq!(err.to_string(), "these rules seat 2 to 4 players, not 5");
        assert_eq!(rules.check_players(1), Err(RulesError::PlayerCount { players: 1, min: 2, max: 4 }));
        assert_eq!(rules.check_players(4), Ok(()));
    }

    #[test]
    fn deck_sizes_match_the_seeds() {
        let size = |n: &str| Rules::preset(n).map(|r| r.deck().len()).unwrap_or(0);
        assert_eq!(size("official"), 108);
        assert_eq!(size("two-color"), 50);
        assert_eq!(size("csce322"), 108);
        let r = Rules::new(RulesConfig { deck: RulesConfig::deck_from_counts(1, 0, 0), ..RulesConfig::default() })
            .expect("valid");
        assert_eq!(r.deck().len(), 40);
    }

    #[test]
    fn numbers_a_client_may_send_are_bounded() {
        let over = |c: RulesConfig| matches!(Rules::new(c), Err(RulesError::OverLimit { .. }));
        let base = RulesConfig::default;
        let mut c = base();
        c.scoring.target = Some(u32::MAX);
        assert!(over(c));
        let mut c = base();
        c.scoring.target = Some(MAX_TARGET);
        assert!(Rules::new(c).is_ok());
        let mut c = base();
        c.play.turn_cap = Some(u32::MAX);
        assert!(over(c));
        let mut c = base();
        c.scoring.wild = u32::MAX;
        assert!(over(c));
        let mut c = base();
        c.scoring.digits = DigitPoints::Fixed(MAX_CARD_POINTS + 1);
        assert!(over(c));
        let mut c = base();
        c.uno.penalty = MAX_PENALTY + 1;
        assert!(over(c));
        let mut c = base();
        c.name = "n".repeat(MAX_NAME_CHARS + 1);
        assert!(over(c));
        let mut c = base();
        c.description = "d".repeat(MAX_DESCRIPTION_CHARS + 1);
        assert!(over(c));
    }

    #[test]
    fn invalid_rules_name_the_reason() {
        let base = RulesConfig::default();
        let mut c = base.clone();
        c.deck.colors.clear();
        assert_eq!(Rules::new(c), Err(RulesError::NoColors));
        let mut c = base.clone();
        c.players = PlayersConfig { min: 1, max: 4 };
        assert!(matches!(Rules::new(c), Err(RulesError::PlayersOutOfRange { .. })));
        let mut c = base.clone();
        c.deal.hand_size = 60;
        assert!(matches!(Rules::new(c), Err(RulesError::DeckTooSmall { .. })));
        let mut c = base.clone();
        c.deck.per_color.insert("eleven".into(), 1);
        assert_eq!(Rules::new(c), Err(RulesError::UnknownColoredFace("eleven".into())));
        let mut c = base;
        c.deck.per_color.insert("wild".into(), 1);
        assert_eq!(Rules::new(c), Err(RulesError::UnknownColoredFace("wild".into())));
        assert!(matches!(RulesConfig::from_toml("[deck]\ncolors = [\"purple\"]"), Err(RulesError::Syntax(_))));
        assert!(matches!(RulesConfig::from_toml("[play]\nstacking = \"sometimes\""), Err(RulesError::Syntax(_))));
        assert!(matches!(RulesConfig::from_toml("nonsense = 1"), Err(RulesError::Syntax(_))));
        assert_eq!(Rules::preset("nope"), Err(RulesError::UnknownPreset("nope".into())));
    }

    #[test]
    fn a_partial_file_takes_official_values_for_the_rest() {
        let c = RulesConfig::from_toml("name = \"stacky\"\n[play]\nstacking = \"both\"\n").expect("valid");
        assert_eq!(c.play.stacking, Stacking::Both);
        assert_eq!(c.deck, DeckConfig::default());
        assert_eq!(c.uno, UnoConfig::default());
    }
}
