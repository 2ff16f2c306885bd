// Generated from the server's Rust types (crates/server/src/messages.rs, api.rs, host/, games/uno/, ws.rs, stats.rs; the engine's in crates/uno, the analysis in crates/uno-lab) by ts-rs: do not edit.
// Regenerate: UPDATE_PROTOCOL_TYPES=1 cargo test -p server --lib protocol

export type Color = "red" | "yellow" | "green" | "blue";

/**
 * The direction of play. `Clockwise` means increasing seat numbers.
 */
export type Direction = "clockwise" | "counter_clockwise";

/**
 * Where the game stands: who must decide what.
 */
export type Phase = { "phase": "play" } | { "phase": "drawn_card" } | { "phase": "choose_color" } | { "phase": "challenge", 
/**
 * The seat that played the Wild Draw Four.
 */
offender: number, } | { "phase": "choose_swap" } | { "phase": "same_number" } | { "phase": "round_over" } | { "phase": "game_over" };

/**
 * One decision. Every action is taken by a seat: `Game::apply(seat, action)`.
 */
export type Action = { "type": "play", 
/**
 * The card, which must be in the player's hand.
 */
card: string, 
/**
 * The colour that follows a wild card; required for a wild, refused for any other.
 */
color?: Color | null, } | { "type": "draw" } | { "type": "pass" } | { "type": "declare_color", 
/**
 * The colour to be in play; one of the rules' colours.
 */
color: Color, } | { "type": "challenge" } | { "type": "accept" } | { "type": "swap_hands", 
/**
 * Another seat at the table.
 */
with: number, } | { "type": "call_uno" } | { "type": "catch_uno", 
/**
 * The player to catch.
 */
seat: number, } | { "type": "next_round" };

/**
 * Why cards went into a hand, on [`Event::CardsDrawn`].
 */
export type DrawReason = "turn" | "penalty" | "uno_penalty" | "false_uno_call" | "challenge_lost" | "challenge_guilty";

/**
 * Why a game ended, in its [`Outcome`].
 */
export type EndReason = "won" | "stalemate" | "turn_cap" | "max_turns";

/**
 * How a game ended.
 */
export type Outcome = { 
/**
 * The seat that won the last round (and with it the match); `None` when nobody won.
 */
winner: number | null, 
/**
 * Why the game ended.
 */
reason: EndReason, 
/**
 * Points each seat has won, match totals included.
 */
scores: Array<number>, };

/**
 * One thing that happened in a game, in the order it happened. `Game::apply` returns the events
 * of one action; the JSON form is tagged by `type` (`{"type": "card_played", ...}`).
 */
export type Event = { "type": "round_started", 
/**
 * The round's number, from 1.
 */
round: number, 
/**
 * The dealer; the first player is normally the seat after them.
 */
dealer: number, } | { "type": "start_card", 
/**
 * The card turned up.
 */
card: string, 
/**
 * Whether it went back into the deck (another card is then turned).
 */
returned: boolean, } | { "type": "turn_started", 
/**
 * The player to act.
 */
seat: number, } | { "type": "card_played", 
/**
 * Who played it.
 */
seat: number, 
/**
 * The card.
 */
card: string, 
/**
 * Played out of turn, as a jump-in (an identical card on the top card); play goes on
 * from `seat`.
 */
jump_in: boolean, } | { "type": "color_declared", 
/**
 * Who named it.
 */
seat: number, 
/**
 * The colour now in play.
 */
color: Color, } | { "type": "cards_drawn", 
/**
 * Who received the cards.
 */
seat: number, 
/**
 * How many arrived: fewer than asked when both piles ran out.
 */
count: number, 
/**
 * The cards, in the order drawn (empty when redacted).
 */
cards: Array<string>, 
/**
 * Why they were drawn.
 */
reason: DrawReason, } | { "type": "passed", 
/**
 * Who passed.
 */
seat: number, } | { "type": "run_ended", 
/**
 * The seat whose run ended.
 */
seat: number, } | { "type": "direction_reversed", 
/**
 * The direction now in force.
 */
direction: Direction, } | { "type": "player_skipped", 
/**
 * Who was skipped.
 */
seat: number, } | { "type": "uno_called", 
/**
 * Who called.
 */
seat: number, } | { "type": "uno_penalty", 
/**
 * The player caught.
 */
seat: number, 
/**
 * The player who caught them.
 */
caught_by: number, } | { "type": "false_uno_call", 
/**
 * Who called.
 */
seat: number, } | { "type": "challenge_resolved", 
/**
 * The player who was to draw four and challenged instead.
 */
challenger: number, 
/**
 * The player of the Wild Draw Four.
 */
offender: number, 
/**
 * Whether the offender held a card of the colour in play (then they draw, not the
 * challenger).
 */
guilty: boolean, } | { "type": "hands_swapped", 
/**
 * The player who played the 7 and chose.
 */
a: number, 
/**
 * The player they chose.
 */
b: number, } | { "type": "hands_rotated", 
/**
 * The direction the hands moved.
 */
direction: Direction, } | { "type": "deck_reshuffled", 
/**
 * The size of the new draw pile.
 */
cards: number, } | { "type": "round_scored", 
/**
 * The round's winner.
 */
winner: number, 
/**
 * The points they won: the value of every card left in the other hands.
 */
points: number, 
/**
 * Every seat's points so far, this round included, in seat order.
 */
totals: Array<number>, } | { "type": "game_over", 
/**
 * Who won, why it ended, the final scores.
 */
outcome: Outcome, };

/**
 * A seat's (or a spectator's) view of the game: its own hand, the sizes of the others,
 * and everything public, the rules included: a bot needs nothing else to decide.
 */
export type Observation = { 
/**
 * The table's rules. In JSON: their configuration (what a rules file holds, as
 * `RulesConfig`), validated again when read back, so an observation of a custom rule set
 * round-trips whole.
 */
rules: RulesConfig, 
/**
 * `None` for a spectator.
 */
viewer: number | null, 
/**
 * The number of seats.
 */
players: number, 
/**
 * The viewer's own hand (empty for a spectator).
 */
hand: Array<string>, 
/**
 * How many cards each seat holds, in seat order.
 */
hand_sizes: Array<number>, 
/**
 * Whether each seat has called UNO for its current hand.
 */
uno_called: Array<boolean>, 
/**
 * The seat that can be caught for not calling UNO, if any.
 */
uno_exposed: number | null, 
/**
 * The card in play: the top of the discard pile.
 */
top: string, 
/**
 * The colour in play (declared, when the top card is a wild); `None` (JSON `null`) while a
 * first-card Wild waits for its colour.
 */
color: Color | null, 
/**
 * The whole discard pile, bottom card first: it is face up.
 */
discard: Array<string>, 
/**
 * Cards left in the draw pile.
 */
draw_pile_size: number, 
/**
 * The seat to act.
 */
current: number, 
/**
 * The direction of play.
 */
direction: Direction, 
/**
 * The seat that dealt this round.
 */
dealer: number, 
/**
 * Who must decide what now.
 */
phase: Phase, 
/**
 * Cards a stacked penalty makes the seat to act draw, if it does not stack on it.
 */
pending_draw: number, 
/**
 * The card the viewer just drew, while deciding about it.
 */
drawn_card: string | null, 
/**
 * Completed turns this round.
 */
turns: number, 
/**
 * The round of the match, from 1.
 */
round: number, 
/**
 * Each seat's match points so far.
 */
scores: Array<number>, 
/**
 * What the viewer may do now (empty for a spectator).
 */
legal_actions: Array<Action>, 
/**
 * How the game ended, once it has.
 */
outcome: Outcome | null, };

/**
 * A rule set as written in a file. Validate it with [`Rules::new`](super::Rules::new).
 */
export type RulesConfig = { 
/**
 * The rule set's name, shown in lists and pages.
 */
name: string, 
/**
 * What the rule set is, in a sentence or two.
 */
description: string, 
/**
 * How many may play.
 */
players: PlayersConfig, 
/**
 * How a round starts.
 */
deal: DealConfig, 
/**
 * The cards.
 */
deck: DeckConfig, 
/**
 * How a turn goes.
 */
play: PlayConfig, 
/**
 * Calling UNO.
 */
uno: UnoConfig, 
/**
 * Points and the match.
 */
scoring: ScoringConfig, 
/**
 * When a round is cut short.
 */
end: EndConfig, };

/**
 * The `[players]` section: the seats the rules allow.
 */
export type PlayersConfig = { 
/**
 * The fewest players (at least 2).
 */
min: number, 
/**
 * The most players (at most 10).
 */
max: number, };

/**
 * The `[deal]` section: how a round starts.
 */
export type DealConfig = { 
/**
 * Cards dealt to each player.
 */
hand_size: number, 
/**
 * Who plays first.
 */
first_player: FirstPlayer, 
/**
 * The direction of play at the start.
 */
direction: Direction, 
/**
 * What the first card turned up does.
 */
first_card: FirstCard, };

/**
 * Who plays first. Seats are numbered in the direction of play, so "left of the dealer"
 * (official) and "right of the dealer, play passing to the right" (seed 004) both mean the
 * seat after a randomly chosen dealer; they differ only in how the direction is named.
 */
export type FirstPlayer = "after_dealer" | "seat0";

/**
 * What the first card turned up does.
 */
export type FirstCard = "official" | "no_effect" | "redraw_until_number" | "redraw_wilds" | "rlcard";

/**
 * The deck as a table of counts: `per_color` copies of each face in every colour listed,
 * and `wild` copies of each wild face in the whole deck.
 */
export type DeckConfig = { 
/**
 * The colours, in order (each colour gets every card of `per_color`).
 */
colors: Array<Color>, 
/**
 * Copies of each coloured face per colour, by face key (`0`–`9`, `skip`, `reverse`, `draw_two`).
 */
per_color: { [key in string]: number }, 
/**
 * Copies of each wild, by key (`wild`, `wild_draw_four`).
 */
wild: { [key in string]: number }, };

/**
 * The `[play]` section: how a turn goes.
 */
export type PlayConfig = { 
/**
 * What a player who draws does next.
 */
draw: DrawRule, 
/**
 * Whether a player who can play must.
 */
forced_play: ForcedPlay, 
/**
 * Which draw cards stack on a pending penalty.
 */
stacking: Stacking, 
/**
 * When a Wild Draw Four may be played and challenged.
 */
wild_draw_four: WildDrawFourRule, 
/**
 * What Reverse does with two players.
 */
two_players: TwoPlayerRule, 
/**
 * Whether identical cards may be played out of turn.
 */
jump_in: JumpIn, 
/**
 * Whether 7s swap hands and 0s pass them round.
 */
seven_zero: SevenZero, 
/**
 * What happens when the draw pile runs out.
 */
exhausted_draw_pile: Exhausted, 
/**
 * Whether several cards of the same number may be played in one turn.
 */
multi_play: MultiPlay, 
/**
 * Stop the game after this many turns (seed 004: 100). Absent: no cap.
 */
turn_cap: number | null, };

/**
 * What a player who draws on their turn may do.
 */
export type DrawRule = "draw_one_may_play" | "draw_one_must_play" | "draw_one_end_turn" | "draw_until_playable" | "draw_one_auto_play";

/**
 * Whether a player holding a playable card may draw instead.
 */
export type ForcedPlay = "optional" | "required" | "precedence";

/**
 * Whether a draw penalty may be passed on by playing another draw card on it.
 */
export type Stacking = "off" | "draw_two" | "wild_draw_four" | "both" | "cross";

/**
 * When a Wild Draw Four may be played, and whether it can be challenged.
 */
export type WildDrawFourRule = "unrestricted" | "restricted" | "challenge" | "last_resort";

/**
 * What a Reverse does at a table of two.
 */
export type TwoPlayerRule = "reverse_skips" | "reverse_reverses";

/**
 * Whether a card identical to the top card may be played out of turn.
 */
export type JumpIn = "off" | "on";

/**
 * The 7–0 house rule.
 */
export type SevenZero = "off" | "on";

/**
 * Whether a player may play several cards in one turn (`docs/rules.md`, "Several cards of the
 * same number").
 */
export type MultiPlay = "off" | "same_number";

/**
 * What an empty draw pile does.
 */
export type Exhausted = "reshuffle" | "no_reshuffle";

/**
 * The `[uno]` section: calling UNO and its penalties.
 */
export type UnoConfig = { 
/**
 * Whether players call UNO.
 */
call: UnoCall, 
/**
 * Cards drawn by a player caught with one card who did not call UNO.
 */
penalty: number, 
/**
 * Cards drawn by a player who calls UNO when there is nothing to call or catch
 * (seed 003: "If there's no one, the yelling player draws instead"). 0: such a call is refused.
 */
false_call_penalty: number, };

/**
 * Whether players call UNO.
 */
export type UnoCall = "off" | "required";

/**
 * The `[scoring]` section: what each card left in a hand is worth, and the match target.
 */
export type ScoringConfig = { 
/**
 * Points for a digit card: its face value, or a fixed number.
 */
digits: DigitPoints, 
/**
 * Points for a Skip.
 */
skip: number, 
/**
 * Points for a Reverse.
 */
reverse: number, 
/**
 * Points for a Draw Two.
 */
draw_two: number, 
/**
 * Points for a Wild.
 */
wild: number, 
/**
 * Points for a Wild Draw Four.
 */
wild_draw_four: number, 
/**
 * Play rounds until a player's total reaches this (absent: 500, the official target);
 * `None`, written `target = "one_round"`, makes one round the whole game.
 */
target: number | "one_round", };

export type DigitPoints = "face_value" | number;

/**
 * When a game that nobody wins stops.
 */
export type EndConfig = { 
/**
 * A round that reaches this many turns ends the game as a stalemate
 * (`EndReason::MaxTurns`): some rule sets can loop for ever (two players who can only draw
 * the one reshuffled card and play it back). Unlike `play.turn_cap`, a rule some games
 * state, this is a guard: set high enough that no real game meets it.
 */
max_turns: number, };

export type SeatKind = "human" | "bot";

export type TableStatus = "waiting" | "playing" | "finished";

/**
 * Who holds a seat, as every viewer sees it: a person's name, or a bot's kind.
 */
export type Occupant = { seat: number, kind: SeatKind, name: string | null, 
/**
 * Whether a person holds this seat (always true for a bot).
 */
taken: boolean, bot: string | null, 
/**
 * A person's seat whose time ran out twice in a row: a bot plays it until they act again.
 */
away: boolean, 
/**
 * The turns in a row the server played for this person because their time ran out.
 */
timeouts: number, 
/**
 * A bot's seat taken over from a person who resigned during play: their name.
 */
replaced: string | null, 
/**
 * The account of the signed-in person at this seat (its profile: `/player.html?id=…`);
 * `null` for a guest and a bot.
 */
account?: string, 
/**
 * At a rated table, the signed-in person's rating in its pool when they sat down (or when
 * its current game was dealt, for a rematch).
 */
rating?: SeatRating, };

/**
 * A seat's rating as the lobby and the table show it: `1523`, or `1500?` while provisional.
 */
export type SeatRating = { points: number, provisional: boolean, };

/**
 * One seat's hand at a round's end.
 */
export type HandResult = { cards: Array<string>, 
/**
 * The points these cards are worth to the round's winner (the rules' scoring table).
 */
points: number, };

/**
 * The result of the round just ended (and of the game, once over), as the engine scored it.
 */
export type RoundResult = { 
/**
 * The round, from 1.
 */
round: number, 
/**
 * Who emptied their hand; `null` when the round ended without a winner (a stalemate, a
 * turn cap).
 */
winner: number | null, 
/**
 * What the winner scored this round: the points of every card left in the other hands
 * (the engine's `round_scored` event); 0 without a winner.
 */
points: number, 
/**
 * Every seat's hand at the end, in seat order, with what it was worth under these rules.
 */
hands: Array<HandResult>, 
/**
 * Every seat's match points, this round included.
 */
totals: Array<number>, 
/**
 * Whether the game is over (the match decided, or ended without a winner).
 */
game_over: boolean, 
/**
 * Who won the game, once it is over; `null` while it goes on or when nobody won.
 */
match_winner: number | null, 
/**
 * Why the game ended, once it is over.
 */
end_reason: EndReason | null, };

/**
 * An event and the table version its action produced.
 */
export type LoggedEvent = { version: number, event: Event, };

/**
 * The kept game a "play from here" table started from: table `table`'s `game`th game (from 0)
 * after `ply` actions. The cards no seat could see there (the draw pile) were shuffled again
 * with a fresh seed; from an imported record (`imported`: a file someone sent in, its hands
 * whatever the file says) the hands were dealt afresh too, each as large as it was. Shown in
 * the lobby and the table's view before anyone sits, as a chosen seed is: whoever read the
 * kept game knows where the position came from.
 */
export type StartedFrom = { table: string, game: number, ply: number, imported: boolean, };

/**
 * The table as one viewer sees it: `GET /api/tables/{id}`, the answer to an action, and every
 * WebSocket message (`type` = `state` for a full view, `update` after a change).
 */
export type TableView = { 
/**
 * `state` for a full view, `update` for the answer to an action.
 */
type: "state" | "update", id: string, game: string, status: TableStatus, 
/**
 * Rises by one with every accepted action (and with a rematch); send it back with an action.
 */
version: number, generation: number, rules: string, seats: Array<Occupant>, 
/**
 * The viewer's seat; `null` for a spectator.
 */
you: number | null, spectators: boolean, 
/**
 * Whether the creator chose this game's seed: then the creator can work out every hidden
 * card (every hand, every future draw). Shown to every person before they sit.
 */
chosen_seed: boolean, 
/**
 * Where a "play from here" game started: the kept game and the ply of its position.
 */
started_from?: StartedFrom | null, turn_seconds: number | null, 
/**
 * Milliseconds left on the current turn's timer.
 */
turn_ms_left: number | null, 
/**
 * Whose turn time `turn_ms_left` is (`null` when no clock runs).
 */
turn_seat: number | null, 
/**
 * At a table of bots only, after a round: how long the result stays up before the next deal.
 */
round_pause_ms?: number | null, 
/**
 * After a round or the game: every seat's hand, so everyone sees what was scored.
 */
revealed_hands?: Array<Array<string>> | null, 
/**
 * After a round or the game: its result as the engine scored it (the pages show it, they
 * never count points themselves).
 */
round_result?: RoundResult | null, 
/**
 * Everything this viewer may know of the game; `null` while the table waits for its
 * seats (nothing is dealt before play starts).
 */
view: Observation | null, 
/**
 * What the viewer may do now (empty when it may do nothing).
 */
legal_actions: Array<Action>, 
/**
 * Recent events (on a read), or the events of this change (action answer, push).
 */
events: Array<LoggedEvent>, };

/**
 * How far a game in play is: its round (from 1), the turns played in it, every seat's match
 * points and the target (`null`: one round).
 */
export type Progress = { round: number, turns: number, scores: Array<number>, target: number | null, };

/**
 * A table in a list.
 */
export type TableSummary = { id: string, status: TableStatus, rules: string, seats: Array<Occupant>, open_seats: number, spectators: boolean, 
/**
 * Whether the creator chose the seed (and so can work out every hidden card).
 */
chosen_seed: boolean, 
/**
 * Where a "play from here" table started (a kept game's position, maybe an imported
 * record's): its creator chose the position.
 */
started_from?: StartedFrom | null, version: number, 
/**
 * How far the dealt game is; `null` before the deal.
 */
progress: Progress | null, 
/**
 * People's seats (not bots'), held or open.
 */
people: number, };

/**
 * `GET /api/tables`: the tables open to spectators (the lobby).
 */
export type TableList = { tables: Array<TableSummary>, };

/**
 * `GET /api/games/live`: the games being played now that anyone may watch, people's first.
 */
export type LiveGames = { games: Array<TableSummary>, };

/**
 * The body of `POST /api/queue`.
 */
export type QueueRequest = { 
/**
 * The rules (a preset's name); `official` when left out.
 */
preset?: string, 
/**
 * The table's size: 2, 3 or 4 seats, or `"any"` (four preferred).
 */
players: number | "any", 
/**
 * The name to sit under; a signed-in person sits under their account's (and may leave it
 * out).
 */
name?: string, 
/**
 * Seconds to wait for people before bots fill the table (default 20, at most 600).
 */
wait_s?: number, };

/**
 * Where a person in the queue stands: `GET /api/queue`, the queue socket's every message.
 */
export type QueueStatus = { "state": "waiting", preset: string, 
/**
 * The sizes accepted: 2 to 4, or `any`.
 */
players: number | "any", 
/**
 * People waiting for this preset now, this person included.
 */
waiting: number, 
/**
 * This person's place among them, from 1 (the longest waiting first).
 */
position: number, waited_ms: number, 
/**
 * Until bots fill the table (0: at the next wave).
 */
bots_in_ms: number, } | { "state": "seated", table: string, seat: number, token: string, 
/**
 * The table's page.
 */
invite: string, 
/**
 * People at the table (the others are bots).
 */
people: number, } | { "state": "left" };

/**
 * The answer to `POST /api/queue`: the ticket (the bearer token of `GET`/`DELETE /api/queue`
 * and of the queue's socket) and where its holder stands.
 */
export type Queued = { ticket: string, status: QueueStatus, };

/**
 * One phrase: its stable code (what a client sends) and its words (what pages show).
 */
export type Phrase = { code: string, text: string, };

/**
 * The body of `POST /api/tables/{id}/phrase`: a quick phrase's code (`GET /api/uno/options`
 * lists them).
 */
export type PhraseRequest = { phrase: string, };

/**
 * What every viewer's socket is sent when a seat says a phrase.
 */
export type PhraseSaid = { type: "phrase", seat: number, phrase: string, text: string, };

/**
 * `POST /api/arenas`.
 */
export type CreateArena = { name: string, 
/**
 * How long it runs (1 to 180 minutes; default 10).
 */
minutes?: number, 
/**
 * Points for 1st to 4th place (four numbers; default 6, 5, 3, 1).
 */
place_points?: Array<number>, 
/**
 * Seat fewer than four with bots once one of them waited a pairing (default true).
 */
bots_fill?: boolean, };

/**
 * `POST /api/arenas/{id}/join`.
 */
export type JoinArena = { name: string, };

/**
 * One line of the standings.
 */
export type ArenaLine = { rank: number, name: string, points: number, games: number, wins: number, streak: number, 
/**
 * `free`, `playing` or `left`.
 */
presence: string, };

/**
 * The holder's table now.
 */
export type ArenaSeat = { table: string, seat: number, token: string, invite: string, };

export type ArenaTableView = { table: string, names: Array<string>, };

/**
 * An arena as its page shows it: `GET /api/arenas/{id}`.
 */
export type ArenaView = { id: string, name: string, ends_in_ms: number, finished: boolean, place_points: Array<number>, streak_bonus: number, 
/**
 * Games played to their end so far.
 */
games: number, 
/**
 * Rises with every change (a join, a table seated, a game recorded).
 */
version: number, standings: Array<ArenaLine>, 
/**
 * The tables in play: each one's id and who sits there.
 */
tables: Array<ArenaTableView>, 
/**
 * The asker's name and table, when the token is an entrant's.
 */
you: string | null, your_table: ArenaSeat | null, };

/**
 * `POST /api/arenas/{id}/join`'s answer.
 */
export type ArenaJoined = { token: string, arena: ArenaView, };

/**
 * `GET /api/arenas`.
 */
export type ArenaList = { arenas: Array<ArenaView>, };

/**
 * The answer to `POST /api/tables`: the table, its invite, and the creator's seat and token.
 */
export type Created = { id: string, 
/**
 * Where to send friends: the table's page.
 */
invite: string, 
/**
 * The creator's seat and its secret token (`null` when every seat is a bot).
 */
seat: number | null, token: string | null, table: TableView, };

/**
 * The answer to `POST /api/tables/{id}/join`.
 */
export type Joined = { id: string, seat: number, token: string, table: TableView, };

/**
 * `GET /api/uno/options`.
 */
export type UnoOptions = { 
/**
 * The presets' ids, as `POST /api/tables` takes them.
 */
presets: Array<string>, 
/**
 * Each preset's one-line description (its `description`), by id.
 */
preset_descriptions: { [key in string]: string }, 
/**
 * Each preset's name for people, by id: what it plays, not where it comes from.
 */
preset_titles: { [key in string]: string }, 
/**
 * Each preset in a line for someone new to it, by id: how a game of it goes.
 */
preset_about: { [key in string]: string }, bots: Array<string>, 
/**
 * The quick phrases a seat may say at a table.
 */
phrases: Array<Phrase>, };

/**
 * House-rule toggles; each one left out keeps what the base rules say.
 */
export type HouseRules = { 
/**
 * Draw Two / Wild Draw Four stacking (`play.stacking`).
 */
stacking?: Stacking, 
/**
 * Draw one card or until playable (`play.draw`).
 */
draw?: DrawRule, 
/**
 * Whether a playable card must be played (`play.forced_play`).
 */
forced_play?: ForcedPlay, 
/**
 * Jump-in with an identical card out of turn (`play.jump_in`).
 */
jump_in?: JumpIn, 
/**
 * 7 swaps hands, 0 rotates them (`play.seven_zero`).
 */
seven_zero?: SevenZero, 
/**
 * Several cards of the same number in one turn (`play.multi_play`).
 */
multi_play?: MultiPlay, 
/**
 * When a Wild Draw Four may be played and challenged (`play.wild_draw_four`).
 */
wild_draw_four?: WildDrawFourRule, 
/**
 * Whether UNO must be called, and its penalties (`uno.call`).
 */
uno_call?: UnoCall, 
/**
 * Points to win a match; 0 makes one round the whole game.
 */
match_target?: number, };

export type SeatSpec = { "kind": "human", name?: string, } | { "kind": "bot", bot: string, seed?: string | number, delay_ms?: number, };

/**
 * A position of a kept game: table `table`'s `game`th game (its last without one) after `ply`
 * actions.
 */
export type StartFrom = { table: string, game?: number, ply: number, };

/**
 * `POST /api/tables`.
 */
export type CreateTable = { 
/**
 * A preset name (`official` when neither this nor `rules` is given).
 */
preset?: string, 
/**
 * A rules file: its text (TOML or JSON) as a string, or the rules as a JSON object.
 */
rules?: unknown, house_rules?: HouseRules, seats: Array<SeatSpec>, 
/**
 * The creator's display name (for the first human seat unless `creator_seat` says another).
 */
name?: string, creator_seat?: number, 
/**
 * Whether people without a seat may watch (public view only). Default true.
 */
spectators?: boolean, 
/**
 * Seconds a human has for a turn; on timeout the server plays the default (draw, then pass).
 */
turn_seconds?: number, 
/**
 * Milliseconds a bot waits before acting (default: the server's).
 */
bot_delay_ms?: number, 
/**
 * Fixes the shuffle (tests, replays); random otherwise. A decimal string or a number.
 */
seed?: string | number, 
/**
 * Starts from a kept game's position instead of a deal ("play from here"): its rules and
 * hands, as many seats as it had; `preset`, `rules`, `house_rules` and `seed` are not given.
 */
from?: StartFrom, 
/**
 * A rated table (docs/accounts.md): its games change its players' ratings. Only a
 * signed-in person opens one, every seat is a signed-in person's (no bots, no guests), it
 * plays a preset as it ships, and it has a turn timer (60 s unless `turn_seconds` says).
 */
rated?: boolean, };

/**
 * One accepted action.
 */
export type Move = { 
/**
 * The seat that acted.
 */
seat: number, 
/**
 * What it did.
 */
action: Action, };

/**
 * One action of the timeline, with the round and turn it left the game in.
 */
export type ReplayStep = { 
/**
 * The ply this action leads to (1 for the first action).
 */
ply: number, seat: number, action: Action, round: number, turn: number, };

/**
 * The answer to `GET /api/games/{id}/replay`.
 */
export type ReplayFrame = { id: string, 
/**
 * Which kept game of the table; `null` for the game it is playing now.
 */
game: number | null, 
/**
 * Whether the game is still played (so only its asker's live perspectives are offered).
 */
live: boolean, perspective: string, 
/**
 * How many actions were applied (0: the deal).
 */
ply: number, 
/**
 * The last ply (the number of actions so far).
 */
plies: number, rules: string, seats: Array<Occupant>, 
/**
 * Whether the game was imported from a record file (`POST /api/records`): its names are
 * whatever the file says, so the page marks it.
 */
imported: boolean, 
/**
 * The action that led to this ply (`null` at the deal).
 */
move: Move | null, 
/**
 * The viewer's view, as live play gives it (`TableView::view`).
 */
view: Observation, 
/**
 * Every hand, once a round is over (as live play shows them).
 */
revealed_hands: Array<Array<string>> | null, 
/**
 * Every hand, for the whole-table perspective only.
 */
all_hands: Array<Array<string>> | null, 
/**
 * What this ply's action did (the deal's events at ply 0), as this viewer was told.
 */
events: Array<Event>, 
/**
 * Every action of the game (when asked for).
 */
timeline: Array<ReplayStep> | null, };

/**
 * One legal action's estimated win chance.
 */
export type ActionValue = { action: Action, 
/**
 * Rounds won over playouts.
 */
win: number, 
/**
 * 95% interval of `win`.
 */
ci95: [number, number], };

/**
 * One decision of the analysed seat.
 */
export type Decision = { 
/**
 * Index of the action in the record (its ply).
 */
ply: number, round: number, turn: number, chosen: Action, 
/**
 * Every legal action, best first.
 */
values: Array<ActionValue>, 
/**
 * Best value less the chosen action's (0 when the choice was the best).
 */
loss: number, 
/**
 * 95% interval of `loss`, over the same worlds (the actions share them, so this is much
 * narrower than the values' own intervals).
 */
loss_ci95: [number, number], 
/**
 * The loss reaches the threshold and its interval excludes zero (never below
 * [`MIN_MISTAKE_SAMPLES`] worlds per action).
 */
mistake: boolean, };

/**
 * One round of the analysed seat.
 */
export type RoundSummary = { round: number, decisions: number, 
/**
 * The best action's chance at the round's first decision.
 */
first: number, 
/**
 * Whether the seat won the round; null when the record stops before it ends.
 */
won: boolean | null, 
/**
 * Σ (chosen − best) over the round's decisions: never positive.
 */
skill: number, 
/**
 * `result − first − skill`: what moved the chance other than the seat's choices.
 */
luck: number | null, };

/**
 * How an analysis valued the actions: playing rounds out, or the value network.
 */
export type AnalysisMethod = "playouts" | "value";

/**
 * The whole analysis.
 */
export type Analysis = { 
/**
 * How the actions were valued.
 */
method: AnalysisMethod, seat: number, samples: number, 
/**
 * In JSON a decimal string, as every 64-bit seed the project writes (`seeding::wide`).
 */
seed: string, decisions: Array<Decision>, 
/**
 * Per round with a decision of the seat.
 */
rounds: Array<RoundSummary>, 
/**
 * Σ of the rounds' skill.
 */
skill: number, 
/**
 * Σ of the rounds' luck, over the rounds that ended.
 */
luck: number, };

/**
 * The answer of `GET /api/games/{id}/analysis`: the engine's analysis with what it is of.
 */
export type AnalysisAnswer = { id: string, 
/**
 * Which kept game of the table.
 */
game: number, 
/**
 * The loss that marks a mistake (0–1).
 */
mistake_threshold: number, 
/**
 * How long the analysis took when it ran, in milliseconds.
 */
ms: number, 
/**
 * Whether it was made for an earlier request.
 */
cached: boolean, 
/**
 * How the actions were valued.
 */
method: AnalysisMethod, seat: number, samples: number, 
/**
 * In JSON a decimal string, as every 64-bit seed the project writes (`seeding::wide`).
 */
seed: string, decisions: Array<Decision>, 
/**
 * Per round with a decision of the seat.
 */
rounds: Array<RoundSummary>, 
/**
 * Σ of the rounds' skill.
 */
skill: number, 
/**
 * Σ of the rounds' luck, over the rounds that ended.
 */
luck: number, };

/**
 * The body of `POST /api/tables/{id}/join`: the name to sit under (a signed-in person sits
 * under their account's, whatever this says), and the seat wanted (absent: the first open one).
 */
export type JoinRequest = { name: string, seat?: number, };

/**
 * The body of `POST /api/tables/{id}/actions`, for any game's actions.
 */
export type ActRequest = { action: Action, 
/**
 * The table version the action was based on.
 */
version: number, };

/**
 * Seed 000's three `.uno` files of a position (`uno::courses::export`): Player 1 is the seat to
 * move, the others follow in the order of play.
 */
export type UnoFiles = { deck: string, discard: string, hands: string, };

/**
 * The answer to `GET /api/games/{id}/position`: the whole position (`Position::from_json` and
 * `str::parse` read its two forms back) and the rules it is played under.
 */
export type PositionExport = { id: string, game: number, ply: number, 
/**
 * The rule set's name.
 */
rules: string, 
/**
 * The rules, as configured (a rules file of them plays the position).
 */
rules_config: RulesConfig, 
/**
 * `Position::to_json`'s form (its seed and generator state decimal strings): the page saves
 * it and reads none of it.
 */
position: Record<string, unknown>, 
/**
 * The position's compact text form (`uno-position 1`).
 */
text: string, 
/**
 * The position as seed 000's `.uno` files: only for the `csce322` rules, where someone is
 * to play or draw (`null` otherwise, and `uno_refused` says why).
 */
uno: UnoFiles | null, uno_refused: string | null, };

/**
 * The answer to `POST /api/records`.
 */
export type Imported = { 
/**
 * The id the record is kept under: `GET /api/games/{id}/...` and the replay page read it.
 */
id: string, plies: number, 
/**
 * Whether the record plays to the game's end.
 */
over: boolean, };

/**
 * The body of every refusal: `code` one of [`ServerCode`], or a game's own (`uno::IllegalAction`,
 * Duel's codes).
 */
export type ErrorBody = { code: string, message: string, 
/**
 * What the sentence names (a game's refusal that a page words in the reader's language:
 * Duel's), absent otherwise.
 */
fields?: Record<string, unknown>, };

/**
 * Every `code` the server's own refusals carry (a refused move adds its game's: the UNO
 * engine's `IllegalAction` names, Duel's [`duel::DuelError::code`]). Declared for the pages
 * (`web/protocol.d.ts`), whose refusal sentences are keyed by it, so a new code without a
 * sentence fails their type check.
 */
export type ServerCode = "malformed_json" | "invalid_body" | "not_json" | "body_too_large" | "bad_request" | "too_long" | "missing_token" | "bad_token" | "token_in_url" | "not_found" | "method_not_allowed" | "websocket_required" | "server_busy" | "too_many_connections" | "rate_limited" | "internal" | "spectators_not_allowed" | "no_such_ply" | "invalid_record" | "record_over_limits" | "game_not_over" | "stale_state" | "not_started" | "not_finished" | "seat_taken" | "table_full" | "name_taken" | "not_owner" | "invalid_rules" | "unknown_bot" | "too_many_tables" | "server_full" | "too_many_imports" | "owned_elsewhere" | "owner_unavailable" | "store_unavailable" | "analysis_busy" | "too_many_analyses" | "analysis_timeout" | "name_owned" | "sign_in_required" | "one_seat_each" | "sign_in_failed" | "not_signed_in" | "cross_site" | "too_many_attempts" | "name_unavailable" | "bad_password" | "accounts_unavailable" | "passkey_failed" | "last_credential" | "no_such_passkey" | "illegal_action";

/**
 * Why the engine refused an action. The state is unchanged whenever this is returned.
 */
export type IllegalAction = "game_over" | "round_over" | "no_such_seat" | "not_your_turn" | "card_not_in_hand" | "does_not_match" | "color_required" | "color_not_allowed" | "color_not_in_game" | "must_answer_draw_penalty" | "must_play_when_able" | "must_draw_before_pass" | "already_drawn" | "only_drawn_card" | "must_play_drawn_card" | "same_number_only" | "draw_pile_empty" | "wild_draw_four_not_allowed" | "wild_draw_four_last_resort" | "must_answer_challenge" | "no_challenge_pending" | "must_declare_color" | "no_color_to_declare" | "must_choose_swap" | "no_swap_pending" | "invalid_swap_target" | "jump_in_not_allowed" | "uno_calls_off" | "nothing_to_call" | "uno_already_called" | "cannot_catch_yourself" | "uno_called_in_time" | "catch_too_late" | "not_on_one_card" | "round_not_over" | "precedence_picks_another";

/**
 * An update's `view`: the public part, and to a seat its drawn card and (when it changed) its hand.
 */
export type UpdateView = { 
/**
 * A seat's card drawn this turn (`null`: none); absent for a spectator.
 */
drawn_card?: string | null, 
/**
 * A seat's hand, when it changed since it was last told.
 */
hand?: Array<string>, players: number, hand_sizes: Array<number>, uno_called: Array<boolean>, uno_exposed: number | null, top: string, color: Color | null, draw_pile_size: number, current: number, direction: Direction, dealer: number, phase: Phase, pending_draw: number, turns: number, round: number, scores: Array<number>, outcome: Outcome | null, };

/**
 * The `update` message as a client reads it, declared for the pages' types (web/protocol.d.ts):
 * `render` writes it piece by piece: `Head`'s fields, then `events`, then `view` (`PublicView`'s
 * fields and, to a seat, its drawn card and its hand when it changed), then `legal_actions` when
 * they changed. The test `an_update_has_the_declared_fields` holds the two together.
 */
export type Update = { events: Array<LoggedEvent>, view: UpdateView, 
/**
 * The viewer's legal actions, when they changed since it was last told.
 */
legal_actions?: Array<Action>, type: "update", version: number, generation: number, status: TableStatus, turn_ms_left?: number, 
/**
 * Whose turn time `turn_ms_left` is.
 */
turn_seat?: number, round_pause_ms?: number, revealed_hands?: Array<Array<string>>, round_result?: RoundResult, };

/**
 * A refused client message, as the socket answers it: `{"type":"error", code, message}`, the
 * codes those of HTTP refusals.
 */
export type SocketError = { "type": "error", code: string, message: string, };

/**
 * One player's totals.
 * (Counts far below 2^53: numbers on the wire and in the pages' types.)
 */
export type PlayerStats = { 
/**
 * The account's name now, or the name a guest typed.
 */
name: string, 
/**
 * The signed-in person's account (their profile: `player.html?id=…`); `null` for a guest.
 */
account: string | null, games: number, wins: number, 
/**
 * Points won (the game's final scores).
 */
points: number, 
/**
 * Wild Draw Fours this player challenged and the challenge found played illegally.
 */
challenges_won: number, 
/**
 * Times this player was caught with one card without calling UNO.
 */
uno_missed: number, };

/**
 * One page of the answer of `GET /api/stats`.
 */
export type StatsPage = { 
/**
 * Players with at least one kept game.
 */
total: number, 
/**
 * Kept games counted.
 */
games: number, offset: number, limit: number, 
/**
 * When the page was read (Unix ms).
 */
computed_at: number, players: Array<PlayerStats>, };

/**
 * An account as its owner sees it.
 */
export type AccountView = { id: string, name: string, 
/**
 * When it was made (Unix milliseconds).
 */
created_at: number, 
/**
 * Whether it has a password, and how many passkeys.
 */
password: boolean, passkeys: number, };

/**
 * `GET /api/account`: the signed-in person's account, or `null` for a guest.
 */
export type Me = { account: AccountView | null, };

/**
 * The body of a sign-up or a sign-in with a password.
 */
export type PasswordRequest = { name: string, password: string, };

/**
 * The answer to `POST /api/account/sign-out-everywhere`: the sessions it ended.
 */
export type SignedOut = { sessions: number, };

/**
 * The answer to `POST /api/account/delete`: what went with the account.
 */
export type AccountDeleted = { sessions: number, credentials: number, ratings: number, };

/**
 * A seat a guest's browser holds: its table and its token.
 */
export type HeldSeat = { table: string, token: string, };

/**
 * The body of `POST /api/account/claim`: the seats this browser held as a guest.
 */
export type ClaimRequest = { seats: Array<HeldSeat>, };

/**
 * The answer to `POST /api/account/claim`: how many of the seats are the account's now.
 */
export type Claimed = { seats: number, };

/**
 * The body of `POST /api/account/passkey/sign-up/start`: the new account's name.
 */
export type PasskeySignUp = { name: string, };

/**
 * The answer to a ceremony's start: its id, to send back with the browser's answer, and the
 * options for the browser (WebAuthn's JSON form: `{publicKey: …}`, its binary fields in
 * base64url).
 */
export type PasskeyChallenge = { ceremony: string, options: { publicKey: Record<string, unknown> }, };

/**
 * The body of a ceremony's finish: its id and the browser's credential, in WebAuthn's JSON
 * form (`id`, `rawId`, `type`, `response` with its binary fields in base64url).
 */
export type PasskeyFinish = { ceremony: string, credential: Record<string, unknown>, };

/**
 * One of an account's passkeys.
 */
export type PasskeyView = { 
/**
 * Its credential id (base64url), which `DELETE /api/account/passkeys/{id}` takes.
 */
id: string, 
/**
 * When it was added, and last used to sign in (Unix milliseconds).
 */
created_at: number, used_at: number | null, };

/**
 * `GET /api/account/passkeys`, and the answer to adding or removing one.
 */
export type Passkeys = { passkeys: Array<PasskeyView>, };

/**
 * A rating as the pages show it.
 */
export type ShownRating = { 
/**
 * The number shown (a newcomer's is 1500), as of now (uncertainty grows while away).
 */
points: number, 
/**
 * Too uncertain yet to mean much: shown with a `?`.
 */
provisional: boolean, 
/**
 * Rated games in the pool.
 */
games: number, };

/**
 * One point of a rating's graph: the rating after a rated game.
 */
export type HistoryPoint = { 
/**
 * When the game was rated (Unix milliseconds).
 */
at: number, points: number, 
/**
 * The seat's finish: its place (`"1"` won), or `"left"`.
 */
finish: string, 
/**
 * The table and which of its games (its replay: `/replay.html?game=ID`).
 */
game_id: string, game: number, seats: number, };

/**
 * A player's rating in one pool (a preset and a table size: `official/table`).
 */
export type PoolView = { pool: string, rating: ShownRating, 
/**
 * Oldest first, the newest 200.
 */
history: Array<HistoryPoint>, };

/**
 * A game the player sat at.
 */
export type RecentGame = { game_id: string, seat: number, 
/**
 * When they sat down (Unix milliseconds).
 */
since: number, };

/**
 * `GET /api/players/{id}`: a player's profile.
 */
export type PlayerView = { id: string, name: string, created_at: number, ratings: Array<PoolView>, 
/**
 * Rated games played and won (finished first), over every pool.
 */
rated_played: number, rated_won: number, 
/**
 * The newest 20 tables they sat at, newest first.
 */
recent: Array<RecentGame>, };

/**
 * One row of a leaderboard.
 */
export type BoardEntry = { 
/**
 * 1 for the best.
 */
rank: number, id: string, name: string, rating: ShownRating, };

/**
 * A bot's published level on the same scale.
 */
export type BotEntry = { bot: string, points: number, };

/**
 * `GET /api/leaderboard/{preset}`: the players of a pool with enough rated games who played
 * lately, best first (100 a page), and where the bots stand.
 */
export type Leaderboard = { pool: string, 
/**
 * Only players with at least this many rated games in the pool...
 */
min_games: number, 
/**
 * ...and a rated game in the last this many days.
 */
active_days: number, 
/**
 * Players who qualify.
 */
total: number, rows: Array<BoardEntry>, bots: Array<BotEntry>, };
