//! Arena tournaments for 4-seat UNO, as lichess arenas and Board Game Arena's multiplayer
//! Swiss run them: entrants join for a while; whenever the server pairs, whoever is free sits at
//! a table of four with others of similar score; each table's finishing places earn points
//! (+6/+5/+3/+1 by default) and a win right after a win earns a streak bonus.
//!
//! [`Arena`] is a value the server keeps (serde) and changes through three calls: [`Arena::join`]
//! and [`Arena::leave`], [`Arena::pair`] (the tables to start now), [`Arena::record`] (a table's
//! places). Pairing keeps three promises, each tested by simulating 64 entrants through whole
//! tournaments (`tests/arena.rs`):
//!
//! * **Nobody waits two pairings in a row while three others are free.** When the free count is
//!   not a multiple of four, the ones left waiting are the lowest-scored of those who did not
//!   wait at the last pairing. (With fewer than four free, one who already waited sits with
//!   bots when [`ArenaRules::bots_fill`] allows.)
//! * **Leaders meet leaders.** The free entrants are seated in order of score, four a table,
//!   so the first table holds the leaders (BGA's "table 1").
//! * **Not the same three twice in a row when others are free.** A table that would seat someone
//!   with exactly the three others of their last table swaps a member with the nearest-ranked
//!   member of a neighbouring table (or of those left waiting) for whom neither table repeats.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use thiserror::Error;

use crate::rating::Place;

/// The seats at an arena table.
pub const TABLE_SEATS: usize = 4;

/// An entrant: the server's id for a person (or a bot) in one arena.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct EntrantId(pub u64);

/// A table the arena started, numbered from 1.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct TableId(pub u64);

/// Arena points.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Points(pub u32);

/// How an arena scores and seats.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ArenaRules {
    /// Points for 1st, 2nd, 3rd and 4th place (ties each take their shared place's points).
    pub place_points: [u32; TABLE_SEATS],
    /// Extra points for a win whose previous game was a win too.
    pub streak_bonus: u32,
    /// Seat fewer than four free entrants with bots once one of them has waited a pairing.
    pub bots_fill: bool,
}

impl Default for ArenaRules {
    fn default() -> ArenaRules {
        ArenaRules { place_points: [6, 5, 3, 1], streak_bonus: 2, bots_fill: true }
    }
}

/// Why an arena refused a call.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum ArenaError {
    #[error("{0:?} is already in the arena")]
    AlreadyIn(EntrantId),
    #[error("{0:?} is not in the arena")]
    NotIn(EntrantId),
    #[error("no table {0:?} is being played")]
    NoTable(TableId),
    #[error("the places must name each entrant of table {0:?} once")]
    Entrants(TableId),
    #[error("place {0} at a table of four")]
    Place(u8),
}

/// Where an entrant is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Presence {
    Free,
    Playing(TableId),
    /// Left the arena (keeps its points; may join again).
    Left,
}

/// Where one entrant stands in the arena: its points, games and streak, and whether it plays.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Entrant {
    pub points: Points,
    pub games: u32,
    pub wins: u32,
    /// Consecutive wins up to the last game.
    pub streak: u32,
    pub presence: Presence,
    /// Leaving during a game: gone once it is recorded.
    pub leaving: bool,
    /// Left waiting at the last pairing.
    pub waited: bool,
    /// The other entrants of its last table.
    pub last_table: Vec<EntrantId>,
}

impl Entrant {
    fn new() -> Entrant {
        Entrant {
            points: Points(0),
            games: 0,
            wins: 0,
            streak: 0,
            presence: Presence::Free,
            leaving: false,
            waited: false,
            last_table: Vec::new(),
        }
    }
}

/// A table to start: its entrants in seat order, and how many bots fill it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ArenaTable {
    pub id: TableId,
    pub entrants: Vec<EntrantId>,
    pub bots: usize,
}

/// Points a recorded table gave one entrant.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Award {
    pub entrant: EntrantId,
    pub place: Place,
    pub points: Points,
    /// Its streak of wins after this game.
    pub streak: u32,
}

/// One line of the standings.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Standing {
    /// 1 for the leader; entrants equal on points and wins share a rank.
    pub rank: u32,
    pub entrant: EntrantId,
    pub points: Points,
    pub games: u32,
    pub wins: u32,
    pub streak: u32,
    pub presence: Presence,
}

/// An arena in progress.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Arena {
    pub rules: ArenaRules,
    entrants: BTreeMap<EntrantId, Entrant>,
    tables: BTreeMap<TableId, Vec<EntrantId>>,
    next_table: u64,
}

impl Arena {
    pub fn new(rules: ArenaRules) -> Arena {
        Arena { rules, ..Arena::default() }
    }

    /// Adds an entrant, or brings back one who left (with its points).
    ///
    /// # Errors
    /// [`ArenaError::AlreadyIn`] for one already in.
    pub fn join(&mut self, id: EntrantId) -> Result<(), ArenaError> {
        match self.entrants.get_mut(&id) {
            None => {
                self.entrants.insert(id, Entrant::new());
            }
            Some(r) => match r.presence {
                Presence::Left => r.presence = Presence::Free,
                Presence::Playing(_) if r.leaving => r.leaving = false,
                _ => return Err(ArenaError::AlreadyIn(id)),
            },
        }
        Ok(())
    }

    /// Takes an entrant out of the pairings; one at a table leaves once its game is recorded.
    ///
    /// # Errors
    /// [`ArenaError::NotIn`] for one not in (or already gone).
    pub fn leave(&mut self, id: EntrantId) -> Result<(), ArenaError> {
        let record = self.entrants.get_mut(&id).ok_or(ArenaError::NotIn(id))?;
        match record.presence {
            Presence::Free => record.presence = Presence::Left,
            Presence::Playing(_) if !record.leaving => record.leaving = true,
            _ => return Err(ArenaError::NotIn(id)),
        }
        Ok(())
    }

    pub fn entrant(&self, id: EntrantId) -> Option<&Entrant> {
        self.entrants.get(&id)
    }

    /// The entrants free to be seated, leaders first.
    pub fn free(&self) -> Vec<EntrantId> {
        let mut free: Vec<EntrantId> =
            self.entrants.iter().filter(|(_, r)| r.presence == Presence::Free).map(|(id, _)| *id).collect();
        free.sort_by_key(|id| self.rank_key(*id));
        free
    }

    fn rank_key(&self, id: EntrantId) -> (std::cmp::Reverse<u32>, std::cmp::Reverse<u32>, EntrantId) {
        let r = &self.entrants[&id];
        (std::cmp::Reverse(r.points.0), std::cmp::Reverse(r.wins), id)
    }

    fn repeats(&self, table: &[EntrantId]) -> bool {
        table.iter().any(|m| {
            let last = &self.entrants[m].last_table;
            last.len() == TABLE_SEATS - 1 && last.iter().all(|o| table.contains(o))
        })
    }

    /// The tables to start now, from whoever is free (see the module's docs).
    pub fn pair(&mut self) -> Vec<ArenaTable> {
        let free = self.free();
        let n = free.len();
        let mut groups: Vec<Vec<EntrantId>> = Vec::new();
        let mut waiting: Vec<EntrantId> = Vec::new();
        if n < TABLE_SEATS {
            if n > 0 && self.rules.bots_fill && free.iter().any(|id| self.entrants[id].waited) {
                groups.push(free);
            } else {
                waiting = free;
            }
        } else {
            // Those left waiting: the lowest-ranked who did not wait last time.
            let mut left = n % TABLE_SEATS;
            let mut seated = Vec::with_capacity(n);
            for &id in free.iter().rev() {
                if left > 0 && !self.entrants[&id].waited {
                    waiting.push(id);
                    left -= 1;
                } else {
                    seated.push(id);
                }
            }
            seated.reverse();
            waiting.reverse();
            groups = seated.chunks(TABLE_SEATS).map(<[EntrantId]>::to_vec).collect();
            self.untangle(&mut groups, &mut waiting);
        }
        for (id, r) in self.entrants.iter_mut() {
            if r.presence == Presence::Free {
                r.waited = waiting.contains(id);
            }
        }
        groups
            .into_iter()
            .map(|entrants| {
                self.next_table += 1;
                let id = TableId(self.next_table);
                for e in &entrants {
                    if let Some(r) = self.entrants.get_mut(e) {
                        r.presence = Presence::Playing(id);
                        r.waited = false;
                    }
                }
                self.tables.insert(id, entrants.clone());
                ArenaTable { id, bots: TABLE_SEATS - entrants.len(), entrants }
            })
            .collect()
    }

    /// Swaps members between neighbouring tables (and those waiting, who did not wait before)
    /// until no table seats someone with the same three as last time, where a swap can help.
    fn untangle(&self, groups: &mut [Vec<EntrantId>], waiting: &mut [EntrantId]) {
        for t in 0..groups.len() {
            if !self.repeats(&groups[t]) {
                continue;
            }
            // Candidates: the next table down, the one up, then those waiting, nearest first.
            let mut fixed = false;
            for other in [t + 1, t.wrapping_sub(1)] {
                if other >= groups.len() || fixed {
                    continue;
                }
                fixed = self.swap_between(groups, t, other);
            }
            if !fixed {
                for w in waiting.iter_mut() {
                    if self.entrants[w].waited {
                        continue;
                    }
                    let group = &mut groups[t];
                    if let Some(i) = (0..group.len()).rev().find(|&i| {
                        let mut g = group.clone();
                        g[i] = *w;
                        !self.repeats(&g) && !self.entrants[&group[i]].waited
                    }) {
                        std::mem::swap(&mut group[i], w);
                        break;
                    }
                }
            }
        }
    }

    fn swap_between(&self, groups: &mut [Vec<EntrantId>], t: usize, other: usize) -> bool {
        let mut pairs: Vec<(usize, usize)> =
            (0..groups[t].len()).flat_map(|i| (0..groups[other].len()).map(move |j| (i, j))).collect();
        // Nearest in rank first: when `other` is below, `t`'s last seat and `other`'s first.
        let below = other > t;
        pairs.sort_by_key(|&(i, j)| if below { (groups[t].len() - i) + j } else { i + (groups[other].len() - j) });
        for (i, j) in pairs {
            let (mut a, mut b) = (groups[t].clone(), groups[other].clone());
            std::mem::swap(&mut a[i], &mut b[j]);
            if !self.repeats(&a) && !self.repeats(&b) {
                groups[t] = a;
                groups[other] = b;
                return true;
            }
        }
        false
    }

    /// Scores a finished table: each of its entrants' place among the four seats (bots take
    /// the places not listed). Returns the points each earned.
    ///
    /// # Errors
    /// [`ArenaError::NoTable`] for a table not being played, [`ArenaError::Entrants`] unless
    /// the places name its entrants once each, [`ArenaError::Place`] outside 1..=4.
    pub fn record(&mut self, table: TableId, places: &[(EntrantId, Place)]) -> Result<Vec<Award>, ArenaError> {
        let entrants = self.tables.get(&table).ok_or(ArenaError::NoTable(table))?;
        let mut named: Vec<EntrantId> = places.iter().map(|(e, _)| *e).collect();
        named.sort_unstable();
        named.dedup();
        if named.len() != places.len() || named.len() != entrants.len() || !named.iter().all(|e| entrants.contains(e)) {
            return Err(ArenaError::Entrants(table));
        }
        if let Some((_, p)) = places.iter().find(|(_, p)| usize::from(p.get()) > TABLE_SEATS) {
            return Err(ArenaError::Place(p.get()));
        }
        let entrants = self.tables.remove(&table).unwrap_or_default();
        let mut awards = Vec::with_capacity(places.len());
        for &(id, place) in places {
            let Some(r) = self.entrants.get_mut(&id) else { continue };
            let won = place == Place::FIRST;
            let mut points = self.rules.place_points[usize::from(place.get()) - 1];
            if won && r.streak > 0 {
                points = points.saturating_add(self.rules.streak_bonus);
            }
            r.streak = if won { r.streak.saturating_add(1) } else { 0 };
            r.points = Points(r.points.0.saturating_add(points));
            r.games += 1;
            r.wins += u32::from(won);
            r.last_table = entrants.iter().copied().filter(|e| *e != id).collect();
            r.presence = if r.leaving { Presence::Left } else { Presence::Free };
            r.leaving = false;
            awards.push(Award { entrant: id, place, points: Points(points), streak: r.streak });
        }
        Ok(awards)
    }

    /// The standings: by points, then wins; equal on both share a rank.
    pub fn standings(&self) -> Vec<Standing> {
        let mut ids: Vec<EntrantId> = self.entrants.keys().copied().collect();
        ids.sort_by_key(|id| self.rank_key(*id));
        let mut out: Vec<Standing> = Vec::with_capacity(ids.len());
        for (i, id) in ids.iter().enumerate() {
            let r = &self.entrants[id];
            let rank = match out.last() {
                Some(prev) if prev.points == r.points && prev.wins == r.wins => prev.rank,
                _ => i as u32 + 1,
            };
            out.push(Standing {
                rank,
                entrant: *id,
                points: r.points,
                games: r.games,
                wins: r.wins,
                streak: r.streak,
                presence: r.presence,
            });
        }
        out
    }
}
