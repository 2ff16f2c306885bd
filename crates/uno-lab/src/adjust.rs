//! Luck-adjusted match results (AIVAT-style control variates, Burch et al. 2018): each seat's
//! result less the luck of the cards it and the others drew, as a value network measures it.
//!
//! # The estimator
//!
//! Let `u_s(x)` be any function of the whole state `x` (the lab sees every hand). A game is a
//! sequence of events; at a *chance event* the next state is drawn from a distribution `P` the
//! lab knows exactly given everything before it, and there the correction
//! `δ_s = u_s(x') − E_{x'~P}[u_s(x')]` has conditional mean zero. A seat's adjusted result is
//! `W_s − Σ δ_s` over the game's chance events: since every `δ` has mean zero given the past
//! (a martingale difference), `E[W_s − Σ δ_s] = E[W_s]` whatever `u` is, and a `u` that follows
//! the chance of winning removes the part of `W_s` the cards decided. The value network only
//! decides how much variance goes, never the estimate's expectation.
//!
//! **Draws.** Every card drawn (a turn's draw, penalties, UNO penalties, a lost challenge) is
//! one chance event. The engine's fast games keep the draw pile unordered and take a uniformly
//! random card of it (`Game::pop_draw`), and no seat ever sees the pile's order, so given the
//! whole history the next card is uniform over the **cards in the draw pile** at that moment,
//! counted with their copies (two red 7s are twice as likely as the one wild). Not over the
//! cards unseen by the drawer (those include the other hands, which cannot be drawn), nor over
//! distinct kinds. A penalty of several cards is several events in order, each over the pile
//! left by the ones before; a reshuffle in the middle of it gives the next event the new pile
//! (the engine reports the pile before each draw: `Game::apply_with_draws`). The reshuffle
//! itself decides only the pile's order, which no value reads: its correction is zero.
//!
//! The values are the table's: `u_s = p_s / Σ_t p_t`, `p_t = V(observation of t)`
//! (`uno_nn::value`), so that they sum to one in every state. For the draw of card `c` by seat
//! `d`, `u` is taken at one of two states, both functions of the past and of `c` alone:
//!
//! * *in place* ([`LuckAdjuster::draw_luck`]): the state before the action with the cards drawn
//!   so far in this action added to `d`'s hand (its hand and its hand size in every seat's
//!   observation), for every draw but an action's last;
//! * *ahead* ([`LuckAdjuster::draw_luck_ahead`]), for an action's last draw: the engine's state
//!   after the action with its draws taking the cards drawn before and then `c`, played on by a
//!   stand-in `heuristic` in every seat until a decision that would draw a card (no card is
//!   drawn on the way, so no randomness enters), valued by `u` or, at the round's end, by who
//!   won. It sees what the card leads to (a playable card played, a penalty passed on).
//!
//! Either way the expectation is the exact average over the pile's cards (the unit test
//! `the_expected_luck_of_every_draw_is_exactly_zero` averages it over every card).
//!
//! **Decisions.** A bot's decision is a chance event too when the lab knows the distribution it
//! is drawn from (`Bot::policy`: `random` and `uniform` state theirs): the correction is the
//! table's value after the chosen action less its average over the policy
//! ([`LuckAdjuster::decision_luck`], exact in a unit test). It is **off** in matches
//! ([`LuckAdjuster::decisions`]): it gave no narrower interval (1.20× with it and without on
//! 1,000 `heuristic,random` deals). A first check of a mixed table had three seats' mean
//! luck just outside their 95% intervals with it; 10,000 other games put every seat inside
//! (`examples/luck_check.rs … mixed split`, `docs/bots.md`): chance, not a bias. `heuristic`
//! and `net` are deterministic (nothing to correct); the searching bots (`ismcts`, `flat`)
//! state no policy. A choice left uncorrected stays in the
//! result, which keeps the estimate unbiased (a correction is optional, never needed).
//!
//! **The deal.** The deal is a chance event too, and its expectation `E[u_s(x₀)]` is not known.
//! It need not be: in a duplicate match every deal is played once per seating on the same cards,
//! and in every format each entrant holds each seat equally often (`rotate`: each seat once per
//! deal when seated once; `all-seatings` and `round-robin`: by symmetry). With the correction
//! `δ₀ = u_{σ}(x₀) − E[u_{σ}(x₀)]` for the seat `σ` an entrant holds, the entrant's sum over a
//! deal's seatings is `m (Σ_s u_s(x₀) − Σ_s E[u_s(x₀)]) = m (1 − 1) = 0` (`m` the times it holds
//! each seat), because the normalised values sum to one in every state. The deal's correction
//! therefore cancels exactly in every per-deal value and is left out.
//!
//! The per-deal values (plain and adjusted) are independent across deals, so the adjusted
//! difference gets its interval as the plain one does; the ratio of their variances is how many
//! times fewer deals the adjusted estimate needs for the same interval width.

use std::sync::Arc;

use uno::{Action, Card, Event, Game, Seat};
use uno_bots::{Bot, HeuristicBot};
use uno_nn::mapping::offset;
use uno_nn::{obs, ValueNet};

/// One card drawn: who drew it, which card, and the draw pile it was taken from (the cards it
/// could have been, with their copies).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Draw {
    pub seat: Seat,
    pub card: Card,
    pub pile: Vec<Card>,
}

/// The most stand-in decisions a look-ahead takes before it values the state it reached.
pub const LOOKAHEAD: usize = 64;

/// Applies actions while measuring each seat's luck: the sum of its draw corrections.
pub struct LuckAdjuster {
    net: Arc<ValueNet>,
    /// Whether the last draw of an action is valued after the action and a look-ahead.
    lookahead: bool,
    /// Whether [`play_out`] corrects the decisions of bots that state their policy.
    pub decisions: bool,
    stand_in: HeuristicBot,
    vector: Vec<f32>,
    hidden: Vec<Vec<f32>>,
    scratch: Vec<f32>,
}

impl LuckAdjuster {
    /// Values the last card of each action after the action and a look-ahead
    /// ([`LuckAdjuster::draw_luck_ahead`]), the others in place ([`LuckAdjuster::draw_luck`]).
    pub fn new(net: Arc<ValueNet>) -> LuckAdjuster {
        LuckAdjuster::with_lookahead(net, true)
    }

    /// Without `lookahead`, every card is valued in place.
    pub fn with_lookahead(net: Arc<ValueNet>, lookahead: bool) -> LuckAdjuster {
        LuckAdjuster {
            net,
            lookahead,
            decisions: false,
            stand_in: HeuristicBot::new(0),
            vector: Vec::new(),
            hidden: Vec::new(),
            scratch: Vec::new(),
        }
    }

    /// Applies `action` for `seat` as [`Game::apply`] does, and adds each seat's luck to
    /// `luck` (one entry per seat): the choice's, when `policy` states the distribution the
    /// action was drawn from ([`LuckAdjuster::decision_luck`]), and the cards the action drew.
    /// An illegal action changes nothing. The game goes on exactly as an unadjusted one on the
    /// same seeds.
    pub fn apply(
        &mut self,
        game: &mut Game,
        seat: Seat,
        action: Action,
        policy: Option<&[(Action, f64)]>,
        luck: &mut [f64],
    ) {
        let before = game.clone();
        if let Some(policy) = policy {
            self.decision_luck(&before, seat, action, policy, luck);
        }
        let Ok(events) = game.apply(seat, action) else { return };
        let mut drawn: Vec<(Seat, Card)> = Vec::new();
        for event in &events {
            if let Event::CardsDrawn { seat, cards, .. } = event {
                drawn.extend(cards.iter().map(|&c| (*seat, c)));
            }
        }
        if drawn.is_empty() {
            return;
        }
        let cards: Vec<Card> = drawn.iter().map(|&(_, c)| c).collect();
        let mut replay = before.clone();
        let Ok(piles) = replay.apply_with_draws(seat, action, &cards) else { return };
        debug_assert_eq!(piles.len(), cards.len(), "one pile per card drawn");
        let draws: Vec<Draw> =
            drawn.into_iter().zip(piles).map(|((seat, card), pile)| Draw { seat, card, pile }).collect();
        if !self.lookahead || !self.draw_luck_ahead(&before, seat, action, &draws, luck) {
            self.draw_luck(&before, &draws, luck);
        }
    }

    /// The luck of an action's draws when the last one is valued further on: the draws before
    /// it in place (as [`LuckAdjuster::draw_luck`]), and the last one, for each card `c` its
    /// pile holds, by the table's values after the action with its draws taking the cards
    /// drawn before and then `c` (`Game::apply_with_draws`), played on by the stand-in
    /// `heuristic` in every seat until a decision that would draw a card (or the round's end:
    /// then the value is who won). That state depends on the history and on `c` alone (the
    /// stand-in is deterministic and no card is drawn on the way), so the average over the pile
    /// is still the exact expectation. Returns false, having changed nothing, when some card
    /// would make the action draw more cards than it did (the rules draw until playable, say):
    /// the caller values every draw in place then.
    pub fn draw_luck_ahead(
        &mut self,
        before: &Game,
        seat: Seat,
        action: Action,
        draws: &[Draw],
        luck: &mut [f64],
    ) -> bool {
        let Some((last, first)) = draws.split_last() else { return true };
        let mut script: Vec<Card> = first.iter().map(|d| d.card).collect();
        let mut copies = [0u32; Card::KINDS];
        for card in &last.pile {
            copies[card.index()] += 1;
        }
        let players = before.players();
        let mut values: Vec<(usize, u32, Vec<f64>)> = Vec::new();
        let mut table = Vec::with_capacity(players);
        for (kind, &n) in copies.iter().enumerate() {
            if n == 0 && kind != last.card.index() {
                continue;
            }
            let card = last.pile.iter().copied().find(|c| c.index() == kind).unwrap_or(last.card);
            script.push(card);
            let mut game = before.clone();
            let piles = game.apply_with_draws(seat, action, &script);
            script.pop();
            if !piles.is_ok_and(|p| p.len() == draws.len()) {
                return false;
            }
            self.look_ahead(&mut game);
            self.values(&game, &mut table);
            values.push((kind, n, table.clone()));
        }
        self.draw_luck(before, first, luck);
        let total = (last.pile.len() as f64).max(1.0);
        for (kind, n, table) in &values {
            for (s, l) in luck.iter_mut().enumerate().take(players) {
                *l -= f64::from(*n) / total * table[s];
                if *kind == last.card.index() {
                    *l += table[s];
                }
            }
        }
        true
    }

    /// Adds to `luck[s]` seat `s`'s value after the chosen action less its average over the
    /// policy's actions (each with its probability): a decision drawn at random is a chance
    /// event too when its distribution is known. The value after an action is
    /// [`LuckAdjuster::after`]'s: a function of the history and the action alone. A policy of
    /// one action adds nothing.
    pub fn decision_luck(
        &mut self,
        before: &Game,
        seat: Seat,
        chosen: Action,
        policy: &[(Action, f64)],
        luck: &mut [f64],
    ) {
        if policy.len() < 2 {
            return;
        }
        let mut expected = vec![0.0; before.players()];
        let mut actual = None;
        for &(action, p) in policy {
            let values = self.after(before, seat, action);
            for (e, v) in expected.iter_mut().zip(&values) {
                *e += p * v;
            }
            if action == chosen {
                actual = Some(values);
            }
        }
        if let Some(actual) = actual {
            for ((l, a), e) in luck.iter_mut().zip(&actual).zip(&expected) {
                *l += a - e;
            }
        }
    }

    /// The table's values after `action`: after a look-ahead when it draws no card; its
    /// average over the pile's cards, each after a look-ahead, when it draws exactly one card
    /// whatever the card; else the values before it (a function of the history alone).
    pub fn after(&mut self, before: &Game, seat: Seat, action: Action) -> Vec<f64> {
        let mut out = Vec::new();
        let mut probe = before.clone();
        // Only the pile before the first draw and whether there is one are read: neither
        // depends on the generator.
        let piles = match probe.apply_with_draws(seat, action, &[]) {
            Ok(piles) => piles,
            Err(_) => {
                self.values(before, &mut out);
                return out;
            }
        };
        let Some(pile) = piles.first() else {
            self.look_ahead(&mut probe);
            self.values(&probe, &mut out);
            return out;
        };
        let mut copies = [0u32; Card::KINDS];
        for card in pile {
            copies[card.index()] += 1;
        }
        let total = (pile.len() as f64).max(1.0);
        let mut mean = vec![0.0; before.players()];
        for (kind, &n) in copies.iter().enumerate() {
            let Some(card) = pile.iter().copied().find(|c| c.index() == kind) else { continue };
            let mut game = before.clone();
            if !game.apply_with_draws(seat, action, &[card]).is_ok_and(|p| p.len() == 1) {
                self.values(before, &mut out);
                return out;
            }
            self.look_ahead(&mut game);
            self.values(&game, &mut out);
            for (m, v) in mean.iter_mut().zip(&out) {
                *m += f64::from(n) / total * v;
            }
        }
        mean
    }

    /// Plays the stand-in in every seat until a decision that would draw a card, the round's
    /// end, or [`LOOKAHEAD`] decisions.
    fn look_ahead(&mut self, game: &mut Game) {
        for _ in 0..LOOKAHEAD {
            if game.is_round_over() {
                return;
            }
            let seat = game.current();
            let action = self.stand_in.choose_view(&game.view(seat));
            let mut next = game.clone();
            match next.apply_with_draws(seat, action, &[]) {
                Ok(piles) if piles.is_empty() => *game = next,
                _ => return,
            }
        }
    }

    /// The table's values: who won once the round is over, else the normalised network values.
    fn values(&self, game: &Game, out: &mut Vec<f64>) {
        if game.is_round_over() {
            out.clear();
            out.extend(game.player_count().seats().map(|s| f64::from(u8::from(game.round_winner() == Some(s)))));
            uno_nn::value::normalise(out);
        } else {
            self.net.table(game, out);
        }
    }

    /// Adds to `luck[s]`, for every draw in order, seat `s`'s value after it less that value's
    /// average over every card of the pile the draw took from (module doc). `before` is the
    /// state before the action that drew them.
    pub fn draw_luck(&mut self, before: &Game, draws: &[Draw], luck: &mut [f64]) {
        let players = before.players();
        let net = &*self.net;
        self.hidden.resize_with(players, Vec::new);
        for (s, hidden) in Seat::all(players).zip(self.hidden.iter_mut()) {
            net.write_input(before, s, &mut self.vector);
            net.first_layer(&self.vector, hidden);
        }
        let mut q = vec![0.0f64; players];
        let mut expected = vec![0.0f64; players];
        let mut actual = vec![0.0f64; players];
        for draw in draws {
            let mut copies = [0u32; Card::KINDS];
            for card in &draw.pile {
                copies[card.index()] += 1;
            }
            let total = (draw.pile.len() as f64).max(1.0);
            expected.fill(0.0);
            for (kind, &n) in copies.iter().enumerate() {
                if n == 0 && kind != draw.card.index() {
                    continue;
                }
                // Every seat's value had the draw given this kind, normalised over the table.
                for (v, value) in Seat::all(q.len()).zip(q.iter_mut()) {
                    self.scratch.clone_from(&self.hidden[v.index()]);
                    edit(net, &mut self.scratch, players, v, draw.seat, kind);
                    *value = f64::from(net.finish(&self.scratch));
                }
                uno_nn::value::normalise(&mut q);
                let w = f64::from(n) / total;
                for (e, value) in expected.iter_mut().zip(&q) {
                    *e += w * value;
                }
                if kind == draw.card.index() {
                    actual.clone_from(&q);
                }
            }
            for ((l, a), e) in luck.iter_mut().zip(&actual).zip(&expected) {
                *l += a - e;
            }
            // The cards drawn so far count in the next draw's state.
            for (v, hidden) in Seat::all(players).zip(self.hidden.iter_mut()) {
                edit(net, hidden, players, v, draw.seat, draw.card.index());
            }
        }
    }
}

/// Adds card kind `kind`, drawn by `drawer`, to the first layer of `viewer`'s input: its own
/// hand and hand size when it drew, else the drawer's hand size (and hand, when the network
/// reads the other hands).
fn edit(net: &ValueNet, hidden: &mut [f32], players: usize, viewer: Seat, drawer: Seat, kind: usize) {
    let k = offset(players, viewer, drawer);
    if k == 0 {
        net.add_input(hidden, obs::HAND + kind, 1.0);
    } else if let Some(at) = net.other_hand(k) {
        net.add_input(hidden, at + kind, 1.0);
    }
    net.add_input(hidden, obs::HAND_SIZES + k, 1.0);
}

/// Plays a round to its end with one bot per seat, measuring each seat's luck (`luck`, one
/// entry per seat, added to). Returns the decisions taken, and whether the round was abandoned
/// after `max_decisions`.
pub fn play_out(
    game: &mut Game,
    bots: &mut [Box<dyn Bot>],
    adjuster: &mut LuckAdjuster,
    luck: &mut [f64],
    max_decisions: u32,
) -> (u32, bool) {
    let mut decisions = 0u32;
    while !game.is_round_over() {
        if decisions >= max_decisions {
            return (decisions, true);
        }
        let seat = game.current();
        let policy = if adjuster.decisions { bots[seat.index()].policy(&game.view(seat)) } else { None };
        let action = bots[seat.index()].choose_view(&game.view(seat));
        adjuster.apply(game, seat, action, policy.as_deref(), luck);
        decisions += 1;
    }
    (decisions, false)
}

#[cfg(test)]
mod tests {
    use super::*;
    use uno::Rules;

    fn game(seed: u64) -> Game {
        let rules = Arc::new(Rules::preset("official").expect("preset"));
        let mut game = Game::new_fast(rules, 4, seed).expect("a game");
        // A few turns in, so that hands and the discard pile differ from a fresh deal.
        let mut bots: Vec<Box<dyn Bot>> = (0..4).map(|s| uno_bots::BotSpec::Random.build(s)).collect();
        for _ in 0..12 {
            if game.is_round_over() {
                break;
            }
            let seat = game.current();
            let action = bots[seat.index()].choose_view(&game.view(seat));
            game.apply_unchecked(seat, action);
        }
        game
    }

    /// The exactness of each event's expectation: averaged over every card the pile could have
    /// given (each equally likely), a draw's luck is zero for every seat; and for two draws in
    /// a row, over every ordered pair of cards.
    #[test]
    fn the_expected_luck_of_every_draw_is_exactly_zero() {
        let mut adjuster = LuckAdjuster::new(uno_nn::shipped_value());
        for seed in [3, 8] {
            let before = game(seed);
            let pile = before.draw_pile().to_vec();
            let seat = Seat(2);
            let mut mean = [0.0f64; 4];
            let mut spread = 0.0f64;
            for &card in &pile {
                let mut luck = [0.0; 4];
                adjuster.draw_luck(&before, &[Draw { seat, card, pile: pile.clone() }], &mut luck);
                spread = spread.max(luck[2].abs());
                for s in 0..4 {
                    mean[s] += luck[s] / pile.len() as f64;
                }
            }
            assert!(spread > 1e-4, "the draws' luck differs between cards");
            assert!(mean.iter().all(|m| m.abs() < 1e-9), "one draw, seed {seed}: mean luck {mean:?}");

            let mut mean = [0.0f64; 4];
            let pairs = (pile.len() * (pile.len() - 1)) as f64;
            for i in 0..pile.len() {
                let mut rest = pile.clone();
                let first = rest.remove(i);
                for &second in &rest {
                    let mut luck = [0.0; 4];
                    let draws = [
                        Draw { seat, card: first, pile: pile.clone() },
                        Draw { seat: Seat(3), card: second, pile: rest.clone() },
                    ];
                    adjuster.draw_luck(&before, &draws, &mut luck);
                    for s in 0..4 {
                        mean[s] += luck[s] / pairs;
                    }
                }
            }
            assert!(mean.iter().all(|m| m.abs() < 1e-9), "two draws, seed {seed}: mean luck {mean:?}");
        }
    }

    /// A decision drawn from a stated policy: averaged over the policy (each action with its
    /// probability), the decision's luck is zero for every seat, and it is not zero for every
    /// action.
    #[test]
    fn the_expected_luck_of_a_random_decision_is_exactly_zero() {
        let mut adjuster = LuckAdjuster::new(uno_nn::shipped_value());
        let mut seen = 0;
        for seed in 0..12 {
            let before = game(seed);
            if before.is_round_over() {
                continue;
            }
            let seat = before.current();
            let bot = uno_bots::BotSpec::Uniform.build(seed);
            let policy = bot.policy(&before.view(seat)).expect("uniform states its policy");
            if policy.len() < 2 {
                continue;
            }
            let mut mean = [0.0f64; 4];
            let mut spread = 0.0f64;
            for &(action, p) in &policy {
                let mut luck = [0.0; 4];
                adjuster.decision_luck(&before, seat, action, &policy, &mut luck);
                spread = spread.max(luck[seat.index()].abs());
                for s in 0..4 {
                    mean[s] += p * luck[s];
                }
            }
            assert!(mean.iter().all(|m| m.abs() < 1e-9), "seed {seed}: mean luck {mean:?}");
            assert!(spread > 1e-4, "seed {seed}: the actions differ");
            seen += 1;
        }
        assert!(seen >= 5, "{seen} decisions with a choice");
    }

    /// A decision correction is skipped when the chosen action is not among the stated
    /// policy's (`decision_luck` finds no value for it), which would bias the estimate: over
    /// whole games of the mixed table `luck_check` measures (`heuristic` and three `random`),
    /// every choice of a `random` seat with a choice is one its policy states, the policy's
    /// probabilities sum to one, and the correction is computed for it.
    #[test]
    fn every_random_choice_is_one_its_stated_policy_holds() {
        let rules = Arc::new(Rules::preset("official").expect("preset"));
        let mut adjuster = LuckAdjuster::with_lookahead(uno_nn::shipped_value(), false);
        let mut corrected = 0;
        for seed in 0..20u64 {
            let mut game = Game::new_fast(rules.clone(), 4, 300_000 + seed).expect("a game");
            let mut bots: Vec<Box<dyn Bot>> = (0..4)
                .map(|s| {
                    if s == 0 { uno_bots::BotSpec::Heuristic } else { uno_bots::BotSpec::Random }.build(seed * 8 + s)
                })
                .collect();
            let mut luck = [0.0; 4];
            while !game.is_round_over() {
                let seat = game.current();
                let policy = bots[seat.index()].policy(&game.view(seat));
                let action = bots[seat.index()].choose_view(&game.view(seat));
                if let Some(policy) = policy.as_deref().filter(|p| p.len() > 1) {
                    assert!(policy.iter().any(|&(a, _)| a == action), "seed {seed}: {action} is not in {policy:?}");
                    let total: f64 = policy.iter().map(|(_, p)| p).sum();
                    assert!((total - 1.0).abs() < 1e-12, "{policy:?}");
                    let mut one = [0.0; 4];
                    adjuster.decision_luck(&game, seat, action, policy, &mut one);
                    assert!(one.iter().sum::<f64>().abs() < 1e-9, "a correction sums to zero over the table");
                    corrected += usize::from(one.iter().any(|l| *l != 0.0));
                }
                adjuster.apply(&mut game, seat, action, None, &mut luck);
            }
        }
        assert!(corrected > 100, "{corrected} decisions corrected");
    }

    /// The luck of one draw sums to zero over the table (the values are normalised), and the
    /// adjusted game is the same game as an unadjusted one on the same seeds.
    #[test]
    fn an_adjusted_game_is_the_plain_game_and_its_luck_sums_to_zero() {
        let rules = Arc::new(Rules::preset("official").expect("preset"));
        let mut adjuster = LuckAdjuster::new(uno_nn::shipped_value());
        for seed in 0..5u64 {
            let build = || -> Vec<Box<dyn Bot>> { (0..4).map(|s| uno_bots::BotSpec::Random.build(seed + s)).collect() };
            let mut plain = Game::new_fast(rules.clone(), 4, seed).expect("a game");
            uno_bots::play_out(&mut plain, &mut build());
            let mut adjusted = Game::new_fast(rules.clone(), 4, seed).expect("a game");
            let mut luck = [0.0; 4];
            let (_, stuck) = play_out(&mut adjusted, &mut build(), &mut adjuster, &mut luck, 100_000);
            assert!(!stuck);
            assert_eq!(adjusted.state_hash(), plain.state_hash(), "seed {seed}: the same game");
            assert!(luck.iter().sum::<f64>().abs() < 1e-9, "seed {seed}: {luck:?}");
            assert!(luck.iter().any(|l| l.abs() > 1e-3), "seed {seed}: some luck");
        }
    }
}
