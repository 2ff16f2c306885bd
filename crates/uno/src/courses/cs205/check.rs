//! Replaying a transcript against the rules.
//!
//! Why a checker of its own and not the engine: a transcript shows the piles after every turn
//! but not the shuffles that made them, so the engine (which shuffles itself) cannot replay it.
//! The checker walks the blocks instead and asks the rule book for everything a card decides:
//! whether it matches ([`Card::matches`], the engine's `CardSet::matching`), what it does
//! ([`Rules::effect`]), whose turn is next (`next_seat`), whether a player must play, the
//! points and the caps. What it writes itself is only the order of a turn under the one family
//! of rules it knows (play one card or draw one and the turn ends; a Draw Two's victim draws at
//! once; an empty draw pile is rebuilt from the discard pile): [`Transcript::rule_refused`] names
//! every rule outside that family, and `check` refuses such rules at block 0 instead of
//! checking a game by rules it does not follow. `tests/course_cs205.rs` proves the two agree:
//! every game the engine plays, on every preset and house-rule variant the checker takes,
//! passes the checks, and every other variant is refused.

use super::{card_text, direction_text, player_name, step, Status, Transcript, Violation};
use crate::card::{Card, Color, Direction};
use crate::rules::{
    DealConfig, DrawRule, Exhausted, FirstCard, FirstPlayer, ForcedPlay, JumpIn, MultiPlay, PlayConfig, Rules,
    SevenZero, Stacking, TwoPlayerRule, UnoCall, UnoConfig,
};

impl Transcript {
    /// Checks every block and every turn against `rules` (a rule set without wild cards in
    /// which a turn is one play or one draw, as seed 004's). Returns what the game did.
    ///
    /// # Errors
    ///
    /// The first [`Violation`] found: the block where the transcript breaks the rules (or
    /// where it meets rules the checker does not know) and why.
    pub fn check(&self, rules: &Rules) -> Result<Summary, Violation> {
        let fail = |block: usize, reason: String| Violation { block, reason };
        let n = self.check_setup(rules)?;
        let mut summary = Summary::default();
        let mut dead_run = 0;
        for (b, pair) in self.blocks.windows(2).enumerate() {
            let (prev, next) = (&pair[0], &pair[1]);
            if let Some(w) = prev.hands.iter().position(Vec::is_empty) {
                return Err(fail(b + 1, format!("a turn was played after {} won", player_name(w))));
            }
            let turn = check_turn(prev, next, rules).map_err(|reason| fail(b + 1, reason))?;
            match turn {
                Turn::Play { reshuffled } => {
                    summary.plays += 1;
                    summary.reshuffles += reshuffled as usize;
                    dead_run = 0;
                }
                Turn::Draw { reshuffled } => {
                    summary.draws += 1;
                    summary.reshuffles += reshuffled as usize;
                    dead_run = 0;
                }
                Turn::Nothing => dead_run += 1,
            }
        }
        summary.turns = self.blocks.len() - 1;
        summary.winner = self.check_end(rules, summary.turns, dead_run >= n)?;
        Ok(summary)
    }

    /// Checks the rules the checker knows, every block's shape and cards, and the deal; returns
    /// the number of players.
    fn check_setup(&self, rules: &Rules) -> Result<usize, Violation> {
        let fail = |block: usize, reason: String| Violation { block, reason };
        let first = self.blocks.first().ok_or_else(|| fail(0, "no status block".into()))?;
        let n = first.hands.len();
        if n < rules.min_players() || n > rules.max_players() {
            return Err(fail(
                0,
                format!("{n} players; the rules allow {}-{}", rules.min_players(), rules.max_players()),
            ));
        }
        if let Some(rule) = Transcript::rule_refused(rules) {
            return Err(fail(0, format!("the checker does not know {rule}")));
        }
        let mut deck = rules.deck().to_vec();
        deck.sort();
        for (b, block) in self.blocks.iter().enumerate() {
            if block.hands.len() != n {
                return Err(fail(b, format!("{} hands, the game has {n} players", block.hands.len())));
            }
            if block.current >= n {
                return Err(fail(b, format!("current player {} does not exist", block.current + 1)));
            }
            if block.discard.is_empty() {
                return Err(fail(b, "the discard pile is empty".into()));
            }
            if block.all_cards() != deck {
                return Err(fail(b, "the cards are not exactly the deck's (one lost, added or duplicated)".into()));
            }
        }
        if let Some((i, h)) = first.hands.iter().enumerate().find(|(_, h)| h.len() != rules.hand_size()) {
            return Err(fail(0, format!("{} was dealt {} cards, not {}", player_name(i), h.len(), rules.hand_size())));
        }
        if first.discard.len() != 1 {
            return Err(fail(0, "the set-up must turn exactly one card to start the discard pile".into()));
        }
        if first.direction != rules.direction() {
            return Err(fail(0, format!("the game starts going {}", direction_text(rules.direction()))));
        }
        if rules.first_player() == FirstPlayer::Seat0 && first.current != 0 {
            return Err(fail(0, format!("{} plays first under these rules", player_name(0))));
        }
        Ok(n)
    }

    /// The first rule of `rules` outside what the checker knows, in words (`None`: it knows
    /// them all). It knows the rules of seed 004's family: no wild card, no first-card effect,
    /// a draw of one card that ends the turn, a Draw Two's penalty drawn at once (no stacking),
    /// no jump-in, no 7–0, no same-number runs, no UNO calls, and an empty draw pile rebuilt
    /// from the discard pile. Everything else a rule set says (players, hand size, direction,
    /// first player, forced play, the two-player Reverse, points, caps) it reads from the rules.
    pub fn rule_refused(rules: &Rules) -> Option<&'static str> {
        // Every rule of the sections a turn depends on, each choice matched without a
        // wildcard: a rule added to the rule book fails to compile here until the checker
        // decides whether it knows it.
        let DealConfig { hand_size: _, first_player, direction: _, first_card } = &rules.config().deal;
        let PlayConfig {
            draw,
            forced_play,
            stacking,
            wild_draw_four: _,
            two_players,
            jump_in,
            seven_zero,
            exhausted_draw_pile,
            multi_play,
            turn_cap: _,
        } = &rules.config().play;
        let UnoConfig { call, penalty: _, false_call_penalty: _ } = &rules.config().uno;
        // Read from the rules, whatever they say (the deal's checks, `must_play`, the effect tables).
        match first_player {
            FirstPlayer::AfterDealer | FirstPlayer::Seat0 => {}
        }
        match forced_play {
            ForcedPlay::Optional | ForcedPlay::Required | ForcedPlay::Precedence => {}
        }
        match two_players {
            TwoPlayerRule::ReverseSkips | TwoPlayerRule::ReverseReverses => {}
        }
        let first_card = match first_card {
            FirstCard::NoEffect => None,
            FirstCard::Official | FirstCard::RedrawUntilNumber | FirstCard::RedrawWilds | FirstCard::Rlcard => {
                Some("a first-card effect (deal.first_card)")
            }
        };
        let draw = match draw {
            DrawRule::DrawOneEndTurn => None,
            DrawRule::DrawOneMayPlay
            | DrawRule::DrawOneMustPlay
            | DrawRule::DrawUntilPlayable
            | DrawRule::DrawOneAutoPlay => Some("a draw that does not end the turn (play.draw)"),
        };
        let stacking = match stacking {
            Stacking::Off => None,
            Stacking::DrawTwo | Stacking::WildDrawFour | Stacking::Both | Stacking::Cross => {
                Some("stacking (play.stacking)")
            }
        };
        let jump_in = match jump_in {
            JumpIn::Off => None,
            JumpIn::On => Some("jump-ins (play.jump_in)"),
        };
        let seven_zero = match seven_zero {
            SevenZero::Off => None,
            SevenZero::On => Some("the 7-0 rule (play.seven_zero)"),
        };
        let runs = match multi_play {
            MultiPlay::Off => None,
            MultiPlay::SameNumber => Some("same-number runs (play.multi_play)"),
        };
        let calls = match call {
            UnoCall::Off => None,
            UnoCall::Required => Some("UNO calls (uno.call)"),
        };
        let rebuilt = match exhausted_draw_pile {
            Exhausted::Reshuffle => None,
            Exhausted::NoReshuffle => Some("a draw pile that is not rebuilt (play.exhausted_draw_pile)"),
        };
        // Wild cards need no rule: a Wild Draw Four's rule only matters where there are wilds.
        let wilds = rules.deck().iter().any(|c| c.is_wild()).then_some("wild cards (the format cannot write them)");
        [wilds, first_card, draw, stacking, jump_in, seven_zero, runs, calls, rebuilt].into_iter().flatten().next()
    }

    /// Checks how the game ended after `turns` turns (`stalemate`: the last round of turns had
    /// nothing to play and nothing to draw): the winner and their points, or why nobody won.
    fn check_end(&self, rules: &Rules, turns: usize, stalemate: bool) -> Result<Option<(usize, u32)>, Violation> {
        let last = &self.blocks[self.blocks.len() - 1];
        let end = self.blocks.len() - 1;
        let fail = |reason: String| Violation { block: end, reason };
        // The engine ends a round at the rules' turn cap, or at the guard `end.max_turns`.
        let cap = rules.turn_limit() as usize;
        if turns > cap {
            return Err(fail(format!("{turns} turns were played, the cap is {cap}")));
        }
        match last.hands.iter().position(Vec::is_empty) {
            Some(w) => {
                let points = rules.round_points(last.hands.iter().map(Vec::as_slice));
                if self.winner != Some((w, points)) {
                    return Err(fail(format!("the last line must be '{} ({points})'", player_name(w))));
                }
                Ok(Some((w, points)))
            }
            None => {
                if let Some((w, _)) = self.winner {
                    return Err(fail(format!("{} is named the winner but holds cards", player_name(w))));
                }
                let capped = turns == cap;
                if !capped && !stalemate {
                    return Err(fail("the game stopped with no winner, before the turn cap".into()));
                }
                Ok(None)
            }
        }
    }
}

/// What a checked transcript shows.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Summary {
    /// Turns played: blocks after the set-up.
    pub turns: usize,
    /// Turns in which a card was played.
    pub plays: usize,
    /// Turns in which a card was drawn.
    pub draws: usize,
    /// Times the draw pile was rebuilt from the discard pile.
    pub reshuffles: usize,
    /// The winner's seat (0-based) and the points they won; `None` when nobody won.
    pub winner: Option<(usize, u32)>,
}

enum Turn {
    Play {
        reshuffled: bool,
    },
    Draw {
        reshuffled: bool,
    },
    /// Nothing to play and nothing to draw.
    Nothing,
}

fn counts(cards: &[Card]) -> [u16; Card::KINDS] {
    let mut out = [0u16; Card::KINDS];
    for c in cards {
        out[c.index()] += 1;
    }
    out
}

fn fmt_cards(cards: &[Card]) -> String {
    cards.iter().map(|&c| card_text(c).unwrap_or_else(|_| c.to_string())).collect::<Vec<_>>().join(", ")
}

/// Draws `want` cards as the rules do, starting from `draw` and `discard` (top first), and
/// compares with the cards that arrived (`got`) and the piles after (`draw_after`,
/// `discard_after`). Returns whether the draw pile was rebuilt.
fn check_draws(
    want: usize,
    draw: &[Card],
    discard: &[Card],
    got: &[Card],
    draw_after: &[Card],
    discard_after: &[Card],
) -> Result<bool, String> {
    let direct = want.min(draw.len());
    if got.len() < direct || got[..direct] != draw[..direct] {
        return Err(format!(
            "drew [{}], but the top of the draw pile was [{}]",
            fmt_cards(got),
            fmt_cards(&draw[..direct])
        ));
    }
    if direct == want || discard.len() < 2 {
        // No rebuild: the pile was not used up, or there was nothing to rebuild it from.
        if got.len() != direct {
            return Err(format!("drew {} cards, expected {direct}", got.len()));
        }
        if draw_after != &draw[direct..] {
            return Err("the draw pile changed other than by the cards drawn".into());
        }
        if discard_after != discard {
            return Err("the discard pile changed other than by the card played".into());
        }
        return Ok(false);
    }
    // The pile ran out: everything under the top discard was shuffled into a new pile and the
    // rest of the cards came from it.
    let rest = (want - direct).min(discard.len() - 1);
    if got.len() != direct + rest {
        return Err(format!("drew {} cards after rebuilding the pile, expected {}", got.len(), direct + rest));
    }
    if discard_after != &discard[..1] {
        return Err("after rebuilding the draw pile the discard pile must hold only its top card".into());
    }
    let mut from_new: Vec<Card> = got[direct..].to_vec();
    from_new.extend_from_slice(draw_after);
    if counts(&from_new) != counts(&discard[1..]) {
        return Err("the rebuilt draw pile is not the old discard pile less its top card".into());
    }
    Ok(true)
}

fn check_turn(prev: &Status, next: &Status, rules: &Rules) -> Result<Turn, String> {
    let p = prev.current;
    let (turn, victim, expected_current, expected_direction) = if next.hands[p].len() + 1 == prev.hands[p].len() {
        check_play(prev, next, rules)?
    } else {
        let (turn, current) = check_draw(prev, next, rules)?;
        (turn, None, current, prev.direction)
    };
    for (i, (a, b)) in prev.hands.iter().zip(&next.hands).enumerate() {
        if i != p && Some(i) != victim && a != b {
            return Err(format!("{}'s hand changed on {}'s turn", player_name(i), player_name(p)));
        }
    }
    if next.direction != expected_direction {
        return Err(format!("the direction should be {}", direction_text(expected_direction)));
    }
    if next.current != expected_current {
        return Err(format!("the next player should be {}", player_name(expected_current)));
    }
    Ok(turn)
}

/// A turn in which the current player played a card: checks the card, its effect and the piles;
/// returns the turn, the seat that drew a penalty (if any), the next player and the direction.
fn check_play(prev: &Status, next: &Status, rules: &Rules) -> Result<(Turn, Option<usize>, usize, Direction), String> {
    let n = prev.hands.len();
    let p = prev.current;
    let top = prev.discard[0];
    let color = top.color().unwrap_or(Color::Red);
    let (old, new) = (&prev.hands[p], &next.hands[p]);
    let card = next.discard[0];
    let removed_ok =
        (0..old.len()).any(|i| old[i] == card && old[..i].iter().chain(&old[i + 1..]).copied().eq(new.iter().copied()));
    if !removed_ok {
        return Err(format!("{} played {}, which left the hand wrong", player_name(p), fmt_cards(&[card])));
    }
    if !card.matches(top, color) {
        return Err(format!(
            "{} played {} on {}: it matches neither colour nor face",
            player_name(p),
            fmt_cards(&[card]),
            fmt_cards(&[top])
        ));
    }
    let mut direction = prev.direction;
    let e = rules.effect(card, n);
    let victim = (e.penalty > 0).then(|| step(p, 1, direction, n));
    if e.flip {
        direction = direction.flipped();
    }
    let steps = 1 + usize::from(e.skip);
    let mut discard: Vec<Card> = vec![card];
    discard.extend_from_slice(&prev.discard);
    let reshuffled = match victim {
        Some(v) => {
            let before = &prev.hands[v];
            let after = &next.hands[v];
            if after.len() < before.len() || after[..before.len()] != before[..] {
                return Err(format!("{} lost cards to a Draw Two", player_name(v)));
            }
            check_draws(e.penalty.into(), &prev.draw, &discard, &after[before.len()..], &next.draw, &next.discard)
                .map_err(|e| format!("{} after a Draw Two: {e}", player_name(v)))?
        }
        None => {
            if next.draw != prev.draw {
                return Err("the draw pile changed, but nobody drew".into());
            }
            if next.discard != discard {
                return Err("the discard pile must be the card played on the old pile".into());
            }
            false
        }
    };
    Ok((Turn::Play { reshuffled }, victim, step(p, steps, direction, n), direction))
}

/// A turn in which the current player played no card: a draw of one card, or nothing when
/// nothing was left to draw; returns the turn and the next player.
fn check_draw(prev: &Status, next: &Status, rules: &Rules) -> Result<(Turn, usize), String> {
    let p = prev.current;
    let top = prev.discard[0];
    let color = top.color().unwrap_or(Color::Red);
    let (old, new) = (&prev.hands[p], &next.hands[p]);
    let playable = old.iter().any(|c| c.matches(top, color));
    if playable && rules.forced_play().must_play() {
        return Err(format!("{} did not play although they held a playable card", player_name(p)));
    }
    if new.len() < old.len() || new[..old.len()] != old[..] {
        return Err(format!("{}'s hand changed in a way no play or draw explains", player_name(p)));
    }
    let got = &new[old.len()..];
    if got.len() > 1 {
        return Err(format!("{} drew {} cards on their turn", player_name(p), got.len()));
    }
    let reshuffled = check_draws(1, &prev.draw, &prev.discard, got, &next.draw, &next.discard)
        .map_err(|e| format!("{}: {e}", player_name(p)))?;
    let turn = if got.is_empty() { Turn::Nothing } else { Turn::Draw { reshuffled } };
    Ok((turn, step(p, 1, prev.direction, prev.hands.len())))
}
