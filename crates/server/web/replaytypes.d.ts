// The replay frame as the replay page reads it (`GET /api/games/{id}/replay`), written by hand
// from crates/server/src/tables/replay.rs (`Frame`, `Step`) until those types are generated into
// protocol.d.ts like the others; only the fields the page reads. Types only: never served.
import type { SeatView } from './protocol';

/** What the page reads of a viewer's view (the server's `Observation`). */
export type ReplayView = {
  hand_sizes: number[];
  current: number;
  uno_called: boolean[];
  scores: number[];
  top: string;
  color: string | null;
  draw_pile_size: number;
  pending_draw?: number;
  direction: string;
  hand: string[];
  drawn_card?: string | null;
};

/** An action of the game, as the record has it (`{type, ...}`). */
export type Action = { type: string; [field: string]: any };

/** One action of the timeline, with the round and turn it left the game in. */
export type Step = { ply: number; seat: number; action: Action; round: number; turn: number };

/** A frame: the game after `ply` actions, as one viewer saw it. */
export type Frame = {
  ply: number;
  plies: number;
  live: boolean;
  /** Sent in as a record file: its names are whatever the file says. */
  imported?: boolean;
  game: number | null;
  rules: string;
  seats: SeatView[];
  move: { seat: number; action: Action } | null;
  view: ReplayView;
  revealed_hands: string[][] | null;
  all_hands: string[][] | null;
  events: any[];
  timeline?: Step[] | null;
};
