// Generated from the server's Rust types (crates/server/src/types.rs) by ts-rs: do not edit.
// Regenerate: UPDATE_PROTOCOL_TYPES=1 cargo test -p server --lib protocol

/**
 * Why a game ended, in its [`Outcome`].
 */
export type EndReason = "won" | "stalemate" | "turn_cap" | "max_turns";

export type SeatKind = "human" | "bot";

export type TableStatus = "waiting" | "playing" | "finished";

/**
 * A seat as every viewer sees it.
 */
export type SeatView = { seat: number, kind: SeatKind, name: string | null, 
/**
 * Whether a person holds this seat (always true for a bot).
 */
taken: boolean, bot: string | null, };

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
