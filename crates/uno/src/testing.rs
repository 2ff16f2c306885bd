//! What every crate's tests share (the `testing` feature): the one list of rule sets tests run
//! on, and cards written as text.
//!
//! "Every rule set" means [`rule_sets`]: the shipped presets, every value of every house rule
//! changed one at a time on `official` ([`house_rules`]), and the [`combinations`] of house
//! rules whose phases meet (stacked penalties with jump-ins, 7–0 swaps with runs). The house
//! rules are listed by destructuring the rules' sections and matching every choice, so a rule
//! added to the rule book fails to compile here until it is listed, and with it every test that
//! runs on every rule set meets it.

use std::sync::Arc;

use crate::card::{Card, Direction};
use crate::rules::{
    preset_config, DealConfig, DrawRule, EndConfig, Exhausted, FirstCard, FirstPlayer, ForcedPlay, JumpIn, MultiPlay,
    PlayConfig, Rules, RulesConfig, SevenZero, Stacking, TwoPlayerRule, UnoCall, UnoConfig, WildDrawFourRule,
};
use crate::PRESET_NAMES;

/// A rule set with the name tests print for it.
#[derive(Clone, Debug)]
pub struct RuleSet {
    /// The preset's name, or the preset and what was changed (`official play.stacking=both`).
    pub name: String,
    /// The rules.
    pub rules: Arc<Rules>,
}

/// A card from its text form (`R7`, `BS`, `W4`); panics on anything else (test data).
pub fn card(text: &str) -> Card {
    text.trim().parse().unwrap_or_else(|e| panic!("not a card {text:?}: {e}"))
}

/// Cards from their text forms, separated by spaces or commas, in the order written.
pub fn cards(text: &str) -> Vec<Card> {
    text.split(|c: char| c.is_whitespace() || c == ',').filter(|t| !t.is_empty()).map(card).collect()
}

/// The rules of a shipped preset.
pub fn preset(name: &str) -> Arc<Rules> {
    Arc::new(Rules::preset(name).unwrap_or_else(|e| panic!("preset {name}: {e}")))
}

/// The shipped presets, in [`PRESET_NAMES`] order.
pub fn presets() -> Vec<RuleSet> {
    PRESET_NAMES.iter().map(|&n| RuleSet { name: n.to_string(), rules: preset(n) }).collect()
}

/// Every preset, every house rule of `official` one at a time, and the combinations: the list
/// "every rule set" means in the project's tests.
pub fn rule_sets() -> Vec<RuleSet> {
    let mut out = presets();
    out.extend(house_rules("official"));
    out.extend(combinations());
    out
}

/// The presets and the [`combinations`]: every phase and rule the engine has, in fewer rule
/// sets, for tests that play many games on each.
pub fn core_rule_sets() -> Vec<RuleSet> {
    let mut out = presets();
    out.extend(combinations());
    out
}

/// Every value of every house rule that differs from preset `base`'s own, changed one at a
/// time (named `base section.key=value`). A value the preset's deck cannot take (`Rules::new`
/// refuses it) is left out.
pub fn house_rules(base: &str) -> Vec<RuleSet> {
    let config = preset_config(base).unwrap_or_else(|e| panic!("preset {base}: {e}"));
    let mut out = Vec::new();
    let mut add = |key: &str, value: String, change: &dyn Fn(&mut RulesConfig)| {
        let mut c = config.clone();
        change(&mut c);
        if c == config {
            return;
        }
        c.name = format!("{base} {key}={value}");
        if let Ok(rules) = Rules::new(c.clone()) {
            out.push(RuleSet { name: c.name, rules: Arc::new(rules) });
        }
    };
    // Destructured whole: a field added to a section fails to compile here until it is listed.
    let DealConfig { hand_size: _, first_player: _, direction: _, first_card: _ } = config.deal;
    for v in first_players() {
        add("deal.first_player", word(&v), &|c| c.deal.first_player = v);
    }
    for v in directions() {
        add("deal.direction", word(&v), &|c| c.deal.direction = v);
    }
    for v in first_cards() {
        add("deal.first_card", word(&v), &|c| c.deal.first_card = v);
    }
    add("deal.hand_size", "3".into(), &|c| c.deal.hand_size = 3);
    let PlayConfig {
        draw: _,
        forced_play: _,
        stacking: _,
        wild_draw_four: _,
        two_players: _,
        jump_in: _,
        seven_zero: _,
        exhausted_draw_pile: _,
        multi_play: _,
        turn_cap: _,
    } = config.play;
    for v in draw_rules() {
        add("play.draw", word(&v), &|c| c.play.draw = v);
    }
    for v in forced_plays() {
        add("play.forced_play", word(&v), &|c| c.play.forced_play = v);
    }
    for v in stackings() {
        add("play.stacking", word(&v), &|c| c.play.stacking = v);
    }
    for v in wild_draw_fours() {
        add("play.wild_draw_four", word(&v), &|c| c.play.wild_draw_four = v);
    }
    for v in two_players() {
        add("play.two_players", word(&v), &|c| c.play.two_players = v);
    }
    for v in jump_ins() {
        add("play.jump_in", word(&v), &|c| c.play.jump_in = v);
    }
    for v in seven_zeros() {
        add("play.seven_zero", word(&v), &|c| c.play.seven_zero = v);
    }
    for v in exhausteds() {
        add("play.exhausted_draw_pile", word(&v), &|c| c.play.exhausted_draw_pile = v);
    }
    for v in multi_plays() {
        add("play.multi_play", word(&v), &|c| c.play.multi_play = v);
    }
    add("play.turn_cap", "40".into(), &|c| c.play.turn_cap = Some(40));
    add("play.turn_cap", "none".into(), &|c| c.play.turn_cap = None);
    let UnoConfig { call: _, penalty: _, false_call_penalty: _ } = config.uno;
    for v in uno_calls() {
        add("uno.call", word(&v), &|c| c.uno.call = v);
    }
    add("uno.penalty", "4".into(), &|c| c.uno.penalty = 4);
    add("uno.false_call_penalty", "2".into(), &|c| c.uno.false_call_penalty = 2);
    let EndConfig { max_turns: _ } = config.end;
    add("end.max_turns", "60".into(), &|c| c.end.max_turns = 60);
    add("scoring.target", "one_round".into(), &|c| c.scoring.target = None);
    out
}

/// House rules together where their phases meet, on `official`: no preset reaches these.
pub fn combinations() -> Vec<RuleSet> {
    let mixes: [(&str, &str); 6] = [
        (
            "mix: cross stack, draw till playable, jump-in, 7-0, restricted",
            "[play]\nstacking = \"cross\"\ndraw = \"draw_until_playable\"\njump_in = \"on\"\nseven_zero = \"on\"\n\
             wild_draw_four = \"restricted\"\n",
        ),
        ("mix: stacking both, draw one must play", "[play]\nstacking = \"both\"\ndraw = \"draw_one_must_play\"\n"),
        (
            "mix: stacking both, jump-in, 7-0, same-number runs",
            "[play]\nstacking = \"both\"\njump_in = \"on\"\nseven_zero = \"on\"\nmulti_play = \"same_number\"\n",
        ),
        ("mix: same-number runs, jump-in", "[play]\nmulti_play = \"same_number\"\njump_in = \"on\"\n"),
        ("mix: false calls, jump-in", "[uno]\nfalse_call_penalty = 2\n[play]\njump_in = \"on\"\n"),
        (
            "mix: forced play, cross stacking, 7-0, no reshuffle, one round",
            "[play]\nforced_play = \"required\"\nstacking = \"cross\"\nseven_zero = \"on\"\n\
             exhausted_draw_pile = \"no_reshuffle\"\n[scoring]\ntarget = \"one_round\"\n",
        ),
    ];
    mixes
        .iter()
        .map(|(name, toml)| {
            let mut c = RulesConfig::from_toml(toml).unwrap_or_else(|e| panic!("{name}: {e}"));
            c.name = (*name).to_string();
            let rules = Rules::new(c).unwrap_or_else(|e| panic!("{name}: {e}"));
            RuleSet { name: (*name).to_string(), rules: Arc::new(rules) }
        })
        .collect()
}

/// A choice as its rules file writes it (`draw_until_playable`).
fn word<T: serde::Serialize>(v: &T) -> String {
    match serde_json::to_value(v) {
        Ok(serde_json::Value::String(s)) => s,
        other => format!("{other:?}"),
    }
}

// Each list is held to its enum by a `match` without a wildcard: a new choice fails to
// compile here until it is listed.

fn first_players() -> [FirstPlayer; 2] {
    let _ = |v: FirstPlayer| match v {
        FirstPlayer::AfterDealer | FirstPlayer::Seat0 => {}
    };
    [FirstPlayer::AfterDealer, FirstPlayer::Seat0]
}

fn directions() -> [Direction; 2] {
    let _ = |v: Direction| match v {
        Direction::Clockwise | Direction::CounterClockwise => {}
    };
    [Direction::Clockwise, Direction::CounterClockwise]
}

fn first_cards() -> [FirstCard; 5] {
    let _ = |v: FirstCard| match v {
        FirstCard::Official
        | FirstCard::NoEffect
        | FirstCard::RedrawUntilNumber
        | FirstCard::RedrawWilds
        | FirstCard::Rlcard => {}
    };
    [FirstCard::Official, FirstCard::NoEffect, FirstCard::RedrawUntilNumber, FirstCard::RedrawWilds, FirstCard::Rlcard]
}

fn draw_rules() -> [DrawRule; 5] {
    let _ = |v: DrawRule| match v {
        DrawRule::DrawOneMayPlay
        | DrawRule::DrawOneMustPlay
        | DrawRule::DrawOneEndTurn
        | DrawRule::DrawUntilPlayable
        | DrawRule::DrawOneAutoPlay => {}
    };
    [
        DrawRule::DrawOneMayPlay,
        DrawRule::DrawOneMustPlay,
        DrawRule::DrawOneEndTurn,
        DrawRule::DrawUntilPlayable,
        DrawRule::DrawOneAutoPlay,
    ]
}

fn forced_plays() -> [ForcedPlay; 3] {
    let _ = |v: ForcedPlay| match v {
        ForcedPlay::Optional | ForcedPlay::Required | ForcedPlay::Precedence => {}
    };
    [ForcedPlay::Optional, ForcedPlay::Required, ForcedPlay::Precedence]
}

fn stackings() -> [Stacking; 5] {
    let _ = |v: Stacking| match v {
        Stacking::Off | Stacking::DrawTwo | Stacking::WildDrawFour | Stacking::Both | Stacking::Cross => {}
    };
    [Stacking::Off, Stacking::DrawTwo, Stacking::WildDrawFour, Stacking::Both, Stacking::Cross]
}

fn wild_draw_fours() -> [WildDrawFourRule; 4] {
    let _ = |v: WildDrawFourRule| match v {
        WildDrawFourRule::Unrestricted
        | WildDrawFourRule::Restricted
        | WildDrawFourRule::Challenge
        | WildDrawFourRule::LastResort => {}
    };
    [
        WildDrawFourRule::Unrestricted,
        WildDrawFourRule::Restricted,
        WildDrawFourRule::Challenge,
        WildDrawFourRule::LastResort,
    ]
}

fn two_players() -> [TwoPlayerRule; 2] {
    let _ = |v: TwoPlayerRule| match v {
        TwoPlayerRule::ReverseSkips | TwoPlayerRule::ReverseReverses => {}
    };
    [TwoPlayerRule::ReverseSkips, TwoPlayerRule::ReverseReverses]
}

fn jump_ins() -> [JumpIn; 2] {
    let _ = |v: JumpIn| match v {
        JumpIn::Off | JumpIn::On => {}
    };
    [JumpIn::Off, JumpIn::On]
}

fn seven_zeros() -> [SevenZero; 2] {
    let _ = |v: SevenZero| match v {
        SevenZero::Off | SevenZero::On => {}
    };
    [SevenZero::Off, SevenZero::On]
}

fn exhausteds() -> [Exhausted; 2] {
    let _ = |v: Exhausted| match v {
        Exhausted::Reshuffle | Exhausted::NoReshuffle => {}
    };
    [Exhausted::Reshuffle, Exhausted::NoReshuffle]
}

fn multi_plays() -> [MultiPlay; 2] {
    let _ = |v: MultiPlay| match v {
        MultiPlay::Off | MultiPlay::SameNumber => {}
    };
    [MultiPlay::Off, MultiPlay::SameNumber]
}

fn uno_calls() -> [UnoCall; 2] {
    let _ = |v: UnoCall| match v {
        UnoCall::Off | UnoCall::Required => {}
    };
    [UnoCall::Off, UnoCall::Required]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_list_names_each_rule_set_once_and_every_one_is_valid() {
        let all = rule_sets();
        let mut names: Vec<&str> = all.iter().map(|r| r.name.as_str()).collect();
        names.sort();
        let before = names.len();
        names.dedup();
        assert_eq!(names.len(), before, "a rule set is listed twice");
        assert!(all.iter().any(|r| r.name == "official play.stacking=cross"), "{names:?}");
        assert!(all.iter().all(|r| r.rules.name() == r.name));
        assert_eq!(cards("R7, B2 W4"), vec![card("R7"), card("B2"), Card::WILD_DRAW_FOUR]);
    }
}
