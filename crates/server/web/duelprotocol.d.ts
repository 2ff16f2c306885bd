// Generated from the Duel engine's Rust types (crates/duel) and the server's Duel answers (crates/server/src/games/duel, duel_api.rs) by ts-rs: do not edit.
// Regenerate: UPDATE_PROTOCOL_TYPES=1 cargo test -p server --lib protocol

/**
 * The two sides: red is the user, black the computer.
 */
export type Side = "red" | "black";

/**
 * A piece's number, 1 to 6.
 */
export type Rank = number;

/**
 * A piece: its side and its number.
 */
export type Piece = { 
/**
 * Whose piece it is.
 */
side: Side, 
/**
 * Its number.
 */
rank: Rank, };

/**
 * What a grid cell holds.
 */
export type Cell = { "kind": "empty" } | { "kind": "block" } | { "kind": "piece" } & Piece;

/**
 * A cell of the grid: column `a`.. from the left, row `1`.. from the top (text form `c4`).
 */
export type Coord = string;

/**
 * What a typed key means: `b`, a number `1`–`6`, a direction `w`/`a`/`s`/`d`, or nothing.
 *
 * Reading is exact: `B`, `W` and ` w` are [`Key::Other`]. It serializes as the text typed, so
 * `Key::parse(&k.to_string()) == k` for every key.
 */
export type Key = string;

/**
 * The four moves, typed as `w` (up), `a` (left), `s` (down), `d` (right).
 */
export type Dir = "up" | "left" | "down" | "right";

/**
 * How the game ended, as the seed defines it.
 */
export type Outcome = "red_wins" | "black_wins" | "draw";

/**
 * Why the play stage ended.
 */
export type EndReason = "user_ended" | "red_cannot_move" | "black_cannot_move" | "round_limit";

/**
 * The three stages of the seed.
 */
export type Stage = { "stage": "setup", 
/**
 * 1 places blocks, 2 red pieces, 3 black pieces.
 */
round: number, } | { "stage": "play", 
/**
 * The play round, from 1.
 */
round: number, 
/**
 * The side whose turn it is.
 */
to_move: Side, } | { "stage": "end", 
/**
 * The play round in which the game ended.
 */
round: number, 
/**
 * Who won, or a draw.
 */
outcome: Outcome, 
/**
 * Why the play stage ended.
 */
reason: EndReason, };

/**
 * The status line of the seed plus the stage.
 */
export type Status = { 
/**
 * The stage, as [`DuelGame::stage`] gives it.
 */
stage: Stage, 
/**
 * The play round (0 during setup).
 */
round: number, 
/**
 * Red pieces on the grid.
 */
red_left: number, 
/**
 * Black pieces on the grid.
 */
black_left: number, 
/**
 * Whose turn it is in the play stage.
 */
to_move: Side | null, 
/**
 * Set in the end stage.
 */
outcome: Outcome | null, };

/**
 * What happened, in order; drives the terminal view and the web page.
 */
export type Event = { "event": "placed", 
/**
 * Where.
 */
cell: Coord, 
/**
 * What now stands there: a block or a piece.
 */
object: Cell, } | { "event": "setup_round_started", 
/**
 * The setup round now open (2 or 3).
 */
round: number, } | { "event": "play_started" } | { "event": "round_started", 
/**
 * The play round, from 1.
 */
round: number, } | { "event": "moved", 
/**
 * The side that moved.
 */
side: Side, 
/**
 * The cell it left.
 */
from: Coord, 
/**
 * The cell it moved to (for an attack, the defender's).
 */
to: Coord, 
/**
 * The direction it went.
 */
dir: Dir, } | { "event": "combat", 
/**
 * The defender's cell, where the winner now stands.
 */
at: Coord, 
/**
 * The piece that moved.
 */
attacker: Piece, 
/**
 * The piece that stood on `at`.
 */
defender: Piece, 
/**
 * The side whose piece was removed.
 */
eliminated: Side, } | { "event": "play_ended", 
/**
 * Why it ended.
 */
reason: EndReason, 
/**
 * Who won, or a draw.
 */
outcome: Outcome, };

/**
 * What the user (or the server on its behalf) does.
 */
export type Action = { "action": "place", 
/**
 * The cell to place on.
 */
cell: Coord, 
/**
 * The key typed.
 */
key: Key, } | { "action": "next_round" } | { "action": "move", 
/**
 * The cell of the piece to move.
 */
cell: Coord, 
/**
 * The key typed.
 */
key: Key, } | { "action": "end" };

/**
 * Who took a logged action.
 */
export type Actor = "user" | "computer";

/**
 * One accepted action and who took it.
 */
export type LoggedAction = { 
/**
 * Who took it.
 */
by: Actor, 
/**
 * What was taken: a computer move is kept as the move it made, so a replay needs no search.
 */
action: Action, };

/**
 * How hard the computer thinks.
 */
export type Difficulty = "easy" | "medium" | "hard" | "expert";

/**
 * A move as the page shows it: from → to, and who lost a fight there.
 */
export type LastMove = { side: Side, from: Coord, to: Coord, 
/**
 * Set when the move was an attack: the side whose piece was eliminated.
 */
eliminated: Side | null, 
/**
 * The number of the piece that moved.
 */
rank: number | null, };

/**
 * One event of a game's history; a move names the piece that moved (its rank is not in the
 * event itself).
 */
export type HistoryEvent = { piece?: Piece, } & ({ "event": "placed", 
/**
 * Where.
 */
cell: Coord, 
/**
 * What now stands there: a block or a piece.
 */
object: Cell, } | { "event": "setup_round_started", 
/**
 * The setup round now open (2 or 3).
 */
round: number, } | { "event": "play_started" } | { "event": "round_started", 
/**
 * The play round, from 1.
 */
round: number, } | { "event": "moved", 
/**
 * The side that moved.
 */
side: Side, 
/**
 * The cell it left.
 */
from: Coord, 
/**
 * The cell it moved to (for an attack, the defender's).
 */
to: Coord, 
/**
 * The direction it went.
 */
dir: Dir, } | { "event": "combat", 
/**
 * The defender's cell, where the winner now stands.
 */
at: Coord, 
/**
 * The piece that moved.
 */
attacker: Piece, 
/**
 * The piece that stood on `at`.
 */
defender: Piece, 
/**
 * The side whose piece was removed.
 */
eliminated: Side, } | { "event": "play_ended", 
/**
 * Why it ended.
 */
reason: EndReason, 
/**
 * Who won, or a draw.
 */
outcome: Outcome, });

/**
 * What every route answers, and a socket's `state`.
 */
export type DuelView = { id: string, difficulty: Difficulty, width: number, height: number, status: Status, 
/**
 * Rows from the top (row 1) down; each row from column `a` rightwards.
 */
cells: Array<Array<Cell>>, 
/**
 * The outcome message in the end stage.
 */
outcome_message: string | null, 
/**
 * Why the play stage ended, in words.
 */
end_reason: string | null, last_move: LastMove | null, 
/**
 * Play rounds begun since the last fight (or since play began): a long quiet spell is a
 * standoff the page points out.
 */
rounds_without_fight: number, 
/**
 * The game's newest events, oldest first (at most `Duel::RECENT_EVENTS`); only in the
 * answer to `GET`, for a page that reloads.
 */
history?: Array<HistoryEvent>, 
/**
 * The events caused by this request's action (empty for create and get).
 */
events: Array<Event>, 
/**
 * The computer's answer to a move, in the same response (empty otherwise).
 */
computer: Array<Event>, };

/**
 * The answer to `POST /api/duel`: the new game, and the person's seat (red) with its secret
 * token, which every action of the game needs (`Authorization: Bearer <token>`).
 */
export type DuelCreated = { seat: number, token: string, id: string, difficulty: Difficulty, width: number, height: number, status: Status, 
/**
 * Rows from the top (row 1) down; each row from column `a` rightwards.
 */
cells: Array<Array<Cell>>, 
/**
 * The outcome message in the end stage.
 */
outcome_message: string | null, 
/**
 * Why the play stage ended, in words.
 */
end_reason: string | null, last_move: LastMove | null, 
/**
 * Play rounds begun since the last fight (or since play began): a long quiet spell is a
 * standoff the page points out.
 */
rounds_without_fight: number, 
/**
 * The game's newest events, oldest first (at most `Duel::RECENT_EVENTS`); only in the
 * answer to `GET`, for a page that reloads.
 */
history?: Array<HistoryEvent>, 
/**
 * The events caused by this request's action (empty for create and get).
 */
events: Array<Event>, 
/**
 * The computer's answer to a move, in the same response (empty otherwise).
 */
computer: Array<Event>, };

/**
 * `GET /api/duel/{id}/replay?ply=K`: the view after `K` actions (default: the last).
 */
export type DuelFrame = { ply: number, plies: number, 
/**
 * The action that led here (`null` at ply 0).
 */
move: LoggedAction | null, 
/**
 * The game as the page showed it then; `events` are that action's.
 */
view: DuelView, };

/**
 * The defaults the page offers before a game.
 */
export type DuelConfig = { default_width: number, default_height: number, max_dimension: number, difficulties: Array<Difficulty>, default_difficulty: Difficulty, };

export type CreateRequest = { difficulty?: Difficulty | null, width?: number | null, height?: number | null, };

export type CellKey = { cell: string, key: string, };
