//! Rules as data: a `RulesConfig` (what a TOML or JSON file says, possibly invalid) is
//! validated once into `Rules` (what the game runs on).
//!
//! Every choice is an enum. Missing sections take the `official` values, so a house-rules
//! file only needs to name what it changes.

mod config;
pub mod effect;
mod error;
mod limits;
pub mod precedence;
mod presets;

pub use config::*;
pub use error::*;
pub use limits::*;
pub use presets::PRESET_NAMES;

use crate::card::{Card, Color, Face};

/// A validated rule set. Build it with [`Rules::new`] or [`Rules::preset`].
#[derive(Clone, Debug, PartialEq)]
pub struct Rules {
    config: RulesConfig,
    deck: Vec<Card>,
    colors: Vec<Color>,
    points: [u32; Card::KINDS],
    /// What each card does: `[more than two players, two players]`, by card index. Kept in
    /// the rules themselves, not behind a pointer of its own: every play reads it. 64 entries,
    /// the last ten never read, so an index masked to six bits needs no bounds check.
    effects: [[crate::effect::CardEffect; 64]; 2],
    /// What may be stacked on each card kind's pending penalty, by card index (the same at
    /// every table size).
    stacked_by: [crate::effect::StackedBy; Card::KINDS],
    /// The kinds the first-card rule sends back when turned up (`CardEffect::first_refused`,
    /// gathered as one set so the deal asks it without walking the table).
    first_refused: crate::hand::CardSet,
    /// The turns after which a round stops without a winner: the turn cap, or the
    /// engine's `end.max_turns` where that comes first ([`Rules::turn_limit`]).
    turn_limit: u32,
}

impl Rules {
    /// Validates `config` and derives what the game reads from it (the deck, card points, every card's effect).
    ///
    /// # Errors
    /// The first [`RulesError`] found: no or repeated colours, an unknown card, too many copies,
    /// an empty deck, a player range outside 2..=10, a deck too small to deal, a first-card rule
    /// the deck cannot meet, a zero cap or target, a number over its limit.
    pub fn new(config: RulesConfig) -> Result<Rules, RulesError> {
        let colors = config.deck.colors.clone();
        let deck = build_deck(&config, &colors)?;
        check_table(&config, &deck)?;
        check_limits(&config, deck.len())?;
        let points = card_points(&config.scoring);
        if let Some(target) = config.scoring.target {
            let deck_points: u64 = deck.iter().map(|c| u64::from(points[c.index()])).sum();
            if deck_points == 0 {
                return Err(RulesError::NoPoints);
            }
            if u64::from(target) > deck_points * u64::from(MAX_ROUNDS_TO_TARGET) {
                return Err(RulesError::TargetOutOfReach { target, deck_points, rounds: MAX_ROUNDS_TO_TARGET });
            }
        }
        let p = &config.play;
        let (effects, stacked_by) = crate::effect::derive(
            config.deal.first_card,
            p.stacking,
            p.wild_draw_four,
            p.two_players,
            p.seven_zero,
            p.multi_play,
        );
        let effects = effects.map(|table| {
            let mut padded = [crate::effect::CardEffect::default(); 64];
            padded[..Card::KINDS].copy_from_slice(&table);
            padded
        });
        // The first-card rule does not depend on the table's size.
        let first_refused = crate::hand::CardSet::from_bits(
            Card::all().filter(|c| effects[0][c.index()].first_refused).fold(0, |m, c| m | 1 << c.index()),
        );
        let turn_limit = p.turn_cap.map_or(config.end.max_turns, |cap| cap.min(config.end.max_turns));
        Ok(Rules { config, deck, colors, points, effects, stacked_by, first_refused, turn_limit })
    }

    /// A named preset (see [`PRESET_NAMES`]).
    ///
    /// # Errors
    /// [`RulesError::UnknownPreset`] for a name not in [`PRESET_NAMES`].
    pub fn preset(name: &str) -> Result<Rules, RulesError> {
        Rules::new(preset_config(name)?)
    }

    /// What playing `card` does at a table of `players`.
    #[inline]
    pub fn effect(&self, card: Card, players: usize) -> crate::effect::CardEffect {
        self.effects[usize::from(players == 2)][card.index() & 63]
    }

    /// What may be stacked on `card` while the penalty it asked for is pending.
    #[inline]
    pub fn stacked_by(&self, card: Card) -> crate::effect::StackedBy {
        self.stacked_by[card.index()]
    }

    /// The kinds the first-card rule sends back into the deck when one is turned up (each
    /// kind's [`CardEffect::first_refused`](crate::effect::CardEffect), as a set).
    #[inline]
    pub fn first_refused(&self) -> crate::hand::CardSet {
        self.first_refused
    }

    /// Every card kind's effect at a table of `players`, by card index.
    pub fn effects(&self, players: usize) -> &[crate::effect::CardEffect] {
        &self.effects[usize::from(players == 2)][..Card::KINDS]
    }

    /// The configuration these rules were made from.
    pub fn config(&self) -> &RulesConfig {
        &self.config
    }
    /// The rule set's name.
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
    /// The fewest players these rules seat.
    pub fn min_players(&self) -> usize {
        self.config.players.min as usize
    }
    /// The most players these rules seat.
    pub fn max_players(&self) -> usize {
        self.config.players.max as usize
    }
    /// Cards dealt to each player.
    pub fn hand_size(&self) -> usize {
        self.config.deal.hand_size as usize
    }
    /// Who plays first in a round.
    pub fn first_player(&self) -> FirstPlayer {
        self.config.deal.first_player
    }
    /// What the first card turned up does.
    pub fn first_card(&self) -> FirstCard {
        self.config.deal.first_card
    }
    /// The direction of play at the start of a round.
    pub fn direction(&self) -> crate::card::Direction {
        self.config.deal.direction
    }
    /// What a player who draws does next.
    pub fn draw_rule(&self) -> DrawRule {
        self.config.play.draw
    }
    /// Whether a player who can play must.
    pub fn forced_play(&self) -> ForcedPlay {
        self.config.play.forced_play
    }
    /// Whether seed 000's precedence list decides every move (see
    /// [`ForcedPlay::precedence_decides`]).
    pub fn precedence_decides(&self) -> bool {
        self.config.play.forced_play.precedence_decides()
    }
    /// Which draw cards may be stacked on a pending penalty.
    pub fn stacking(&self) -> Stacking {
        self.config.play.stacking
    }
    /// When a Wild Draw Four may be played, and whether it can be challenged.
    pub fn wild_draw_four(&self) -> WildDrawFourRule {
        self.config.play.wild_draw_four
    }
    /// What Reverse does with two players.
    pub fn two_players(&self) -> TwoPlayerRule {
        self.config.play.two_players
    }
    /// Whether a player may play an identical card out of turn.
    pub fn jump_in(&self) -> JumpIn {
        self.config.play.jump_in
    }
    /// Whether a 7 swaps hands and a 0 passes them round.
    pub fn seven_zero(&self) -> SevenZero {
        self.config.play.seven_zero
    }
    /// Whether several cards of the same number may be played in one turn.
    pub fn multi_play(&self) -> MultiPlay {
        self.config.play.multi_play
    }
    /// What happens when the draw pile runs out.
    pub fn exhausted(&self) -> Exhausted {
        self.config.play.exhausted_draw_pile
    }
    /// Turns after which a round ends, scored as it stands, if any.
    pub fn turn_cap(&self) -> Option<u32> {
        self.config.play.turn_cap
    }
    /// Turns after which a round ends the game as a stalemate (see [`EndConfig::max_turns`]).
    pub fn max_turns(&self) -> u32 {
        self.config.end.max_turns
    }
    /// The turns after which a round stops without a winner: the smaller of
    /// [`Rules::turn_cap`] (when there is one) and [`Rules::max_turns`].
    #[inline]
    pub fn turn_limit(&self) -> u32 {
        self.turn_limit
    }
    /// Whether players call UNO, and how a missed call is punished.
    pub fn uno_call(&self) -> UnoCall {
        self.config.uno.call
    }
    /// Cards drawn by a player caught not calling UNO.
    pub fn uno_penalty(&self) -> u32 {
        self.config.uno.penalty
    }
    /// Cards drawn for calling UNO when nobody can be caught (0: no penalty).
    pub fn false_call_penalty(&self) -> u32 {
        self.config.uno.false_call_penalty
    }
    /// The points that win a match; `None`: one round is the game.
    pub fn target(&self) -> Option<u32> {
        self.config.scoring.target
    }
    /// Points a card in a loser's hand is worth to the round's winner.
    #[inline]
    pub fn points(&self, card: Card) -> u32 {
        self.points[card.index()]
    }
    /// What a hand left at a round's end is worth to the round's winner: the scoring table,
    /// card by card.
    pub fn hand_points(&self, hand: &[Card]) -> u32 {
        hand.iter().map(|&c| self.points(c)).sum()
    }
    /// What a round's winner scores: every card left in the hands (the winner's is empty).
    pub fn round_points<'a>(&self, hands: impl IntoIterator<Item = &'a [Card]>) -> u32 {
        hands.into_iter().map(|h| self.hand_points(h)).sum()
    }
    /// `players` as a checked count, if these rules seat that many and the deck can deal them.
    ///
    /// # Errors
    /// [`RulesError::PlayerCount`] outside the rules' range (which lies within
    /// `2..=`[`MAX_PLAYERS`]); [`RulesError::DeckTooSmall`] when the hands and the first card
    /// need more cards than the deck has.
    pub fn check_players(&self, players: usize) -> Result<crate::PlayerCount, RulesError> {
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
        // `Rules::new` keeps the range within a table's, so the count is always one.
        crate::PlayerCount::new(players).map_err(|_| RulesError::PlayerCount {
            players,
            min: self.min_players(),
            max: self.max_players(),
        })
    }
}

/// The TOML text of a preset, as shipped.
///
/// # Errors
/// [`RulesError::UnknownPreset`] for a name not in [`PRESET_NAMES`].
pub fn preset_toml(name: &str) -> Result<&'static str, RulesError> {
    presets::shipped(name).ok_or_else(|| RulesError::UnknownPreset(name.to_string()))
}

/// The configuration of a preset.
///
/// # Errors
/// [`RulesError::UnknownPreset`] for a name not in [`PRESET_NAMES`].
pub fn preset_config(name: &str) -> Result<RulesConfig, RulesError> {
    RulesConfig::from_toml(preset_toml(name)?)
}

/// The deck the `[deck]` section lists, sorted: refused for no or repeated colours, an unknown
/// card, too many copies, or no card at all.
fn build_deck(config: &RulesConfig, colors: &[Color]) -> Result<Vec<Card>, RulesError> {
    if colors.is_empty() {
        return Err(RulesError::NoColors);
    }
    for (i, c) in colors.iter().enumerate() {
        if colors[..i].contains(c) {
            return Err(RulesError::DuplicateColor(*c));
        }
    }
    let mut deck = Vec::new();
    for &color in colors {
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
    Ok(deck)
}

/// The checks on the table the deck and sections make: seats, hands, the first-card and
/// multi-play rules the deck must allow, and no zero cap, target or turn limit.
fn check_table(config: &RulesConfig, deck: &[Card]) -> Result<(), RulesError> {
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
    Ok(())
}

/// What each card kind scores, as the `[scoring]` section says.
fn card_points(s: &ScoringConfig) -> [u32; Card::KINDS] {
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
    points
}

/// The bounds on every number and text a rules file may hold, and on the deck it makes (`cards`).
fn check_limits(config: &RulesConfig, cards: usize) -> Result<(), RulesError> {
    let over = |field: &'static str, value: u64, max: u64| {
        if value > max {
            Err(RulesError::OverLimit { field, value, max })
        } else {
            Ok(())
        }
    };
    over("deck (cards)", cards as u64, MAX_DECK_CARDS as u64)?;
    over("deal.hand_size", config.deal.hand_size.into(), MAX_HAND_SIZE.into())?;
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

    /// The one limit a turn tests is the smaller of the two the rules name.
    #[test]
    fn the_turn_limit_is_the_cap_or_the_engines_limit_whichever_comes_first() {
        for (cap, max, limit) in [(None, 60, 60), (Some(100), 60, 60), (Some(40), 60, 40), (Some(60), 60, 60)] {
            let mut config = preset_config("official").expect("official");
            config.play.turn_cap = cap;
            config.end.max_turns = max;
            let rules = Rules::new(config).expect("valid");
            assert_eq!(rules.turn_limit(), limit, "cap {cap:?}, max_turns {max}");
        }
        for name in PRESET_NAMES {
            let rules = Rules::preset(name).expect("preset");
            assert_eq!(rules.turn_limit(), rules.turn_cap().map_or(rules.max_turns(), |c| c.min(rules.max_turns())));
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

    /// A match to a target needs a card worth points, or nobody ever scores and it never ends;
    /// one round needs none.
    #[test]
    fn a_match_whose_cards_are_all_worth_nothing_is_refused() {
        let mut c = crate::rules::preset_config("official").expect("preset");
        c.scoring.digits = DigitPoints::Fixed(0);
        for p in [&mut c.scoring.skip, &mut c.scoring.reverse, &mut c.scoring.draw_two] {
            *p = 0;
        }
        c.scoring.wild = 0;
        c.scoring.wild_draw_four = 0;
        c.scoring.target = Some(500);
        assert_eq!(Rules::new(c.clone()).map(|_| ()), Err(RulesError::NoPoints));
        c.scoring.target = None;
        assert!(Rules::new(c.clone()).is_ok(), "one round ends without points");
        c.scoring.target = Some(4 * MAX_ROUNDS_TO_TARGET);
        c.scoring.wild = 1;
        assert!(Rules::new(c).is_ok(), "one card worth a point is enough for a target it can reach");
    }

    /// A target the deck's points reach only after thousands of rounds is refused: a round's
    /// winner scores at most the whole deck, so the target is at most `MAX_ROUNDS_TO_TARGET`
    /// times that (one Wild worth 1 point, the rest nothing, target 10,000: 2,500 rounds at least).
    #[test]
    fn a_target_the_deck_reaches_only_in_thousands_of_rounds_is_refused() {
        let mut c = crate::rules::preset_config("official").expect("preset");
        c.scoring.digits = DigitPoints::Fixed(0);
        for p in [&mut c.scoring.skip, &mut c.scoring.reverse, &mut c.scoring.draw_two, &mut c.scoring.wild_draw_four] {
            *p = 0;
        }
        c.scoring.wild = 1;
        c.scoring.target = Some(MAX_TARGET);
        let err = Rules::new(c.clone()).map(|_| ()).expect_err("2,500 rounds at least");
        assert_eq!(
            err,
            RulesError::TargetOutOfReach { target: MAX_TARGET, deck_points: 4, rounds: MAX_ROUNDS_TO_TARGET }
        );
        assert_eq!(err.setting().as_deref(), Some("scoring.target"));
        assert!(err.to_string().contains("4 points"), "{err}");
        c.scoring.target = Some(4 * MAX_ROUNDS_TO_TARGET + 1);
        assert!(Rules::new(c.clone()).is_err(), "one point past the bound");
        let official = crate::rules::preset_config("official").expect("preset");
        let mut far = official.clone();
        far.scoring.target = Some(MAX_TARGET);
        assert!(Rules::new(far).is_ok(), "the official deck (1,240 points) reaches the highest target");
    }

    #[test]
    fn a_player_count_the_rules_do_not_seat_says_so() {
        let rules = Rules::preset("two-color").expect("preset");
        let err = rules.check_players(5).expect_err("seed 004 seats 2-4");
        assert_eq!(err, RulesError::PlayerCount { players: 5, min: 2, max: 4 });
        assert_eq!(err.to_string(), "these rules seat 2 to 4 players, not 5");
        assert_eq!(rules.check_players(1), Err(RulesError::PlayerCount { players: 1, min: 2, max: 4 }));
        assert_eq!(rules.check_players(4).map(crate::PlayerCount::get), Ok(4));
    }

    #[test]
    fn the_rules_say_when_precedence_decides_not_their_name() {
        for name in PRESET_NAMES {
            let rules = Rules::preset(name).expect("preset");
            assert_eq!(rules.precedence_decides(), name == "csce322", "{name}");
            assert!(!rules.precedence_decides() || rules.forced_play().must_play(), "{name}");
        }
        let mut config = Rules::preset("csce322").expect("preset").config().clone();
        config.name = "renamed".into();
        assert!(Rules::new(config.clone()).expect("valid").precedence_decides());
        config.play.forced_play = ForcedPlay::Required;
        config.name = "csce322".into();
        assert!(!Rules::new(config).expect("valid").precedence_decides());
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

    /// A deck and hands a game can be played with in a game's time: 64 copies of every card
    /// (3,456 cards) dealt 300 a hand, rules made to make every playout long, are refused.
    #[test]
    fn the_deck_and_the_hands_are_bounded() {
        let rules = |deck: DeckConfig, hand_size: u32| {
            let mut c = RulesConfig { deck, ..RulesConfig::default() };
            c.deal.hand_size = hand_size;
            Rules::new(c)
        };
        let huge = rules(RulesConfig::deck_from_counts(64, 64, 64), 300);
        assert!(matches!(huge, Err(RulesError::OverLimit { field: "deck (cards)", value: 3_392, .. })), "{huge:?}");
        // 4 colours of 10 digits and 3 specials, 8 copies each, and 16 wilds: the most a deck holds.
        let most = RulesConfig::deck_from_counts(8, 8, 16);
        assert_eq!(rules(most.clone(), MAX_HAND_SIZE).map(|r| r.deck().len()), Ok(MAX_DECK_CARDS));
        let hands = rules(most, MAX_HAND_SIZE + 1);
        assert!(matches!(hands, Err(RulesError::OverLimit { field: "deal.hand_size", .. })), "{hands:?}");
        let mut more = RulesConfig::deck_from_counts(8, 8, 16);
        more.wild.insert("wild_draw_four".into(), 1);
        assert!(matches!(rules(more, 7), Err(RulesError::OverLimit { field: "deck (cards)", .. })));
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

    #[test]
    fn both_names_of_the_seat_after_the_dealer_read_as_one() {
        for word in ["after_dealer", "left_of_dealer", "right_of_dealer"] {
            let c = RulesConfig::from_toml(&format!("[deal]\nfirst_player = \"{word}\"\n")).expect("valid");
            assert_eq!(c.deal.first_player, FirstPlayer::AfterDealer, "{word}");
        }
        let written = toml::to_string(&RulesConfig::default()).expect("serialises");
        assert!(written.contains("first_player = \"after_dealer\""), "{written}");
        assert!(RulesConfig::from_toml("[deal]\nfirst_player = \"behind_dealer\"\n").is_err());
    }
}
