//! Teacher data for distilling `flat` into the `net` bot's network (`training/train_distill.py`,
//! `docs/model.md`):
//!
//! ```text
//! cargo run --release -p uno-lab --example teacher_data -- --out DIR [--games N] [--seed S]
//!     [--playouts P] [--all-flat-every K] [--threads T] [--minutes M] [--players SEATS]
//! ```
//!
//! plays `N` official-rules games of `SEATS` seats (4 by default), as `tabletop uno match` plays
//! them (each seat decides on its own turn only): in game `g`, the seat `g % SEATS` is `flat:P` and
//! the others are `heuristic`, except that every `K`-th game (`g % K == K - 1`) seats only `flat:P` bots, so the
//! data is not only one matchup. For every decision a `flat` bot searched (two or more moves; UNO
//! calls, catches and forced moves are not searched) it keeps the deciding seat's observation
//! (`uno_nn::observe`, as the `net` bot writes it), every move the search compared (its index in
//! `uno_nn`'s action space), the share of the search's dealt worlds that move won, the number of
//! worlds, the move played, and the seat's round result. Game `g` is dealt from
//! `seeding::sim_game_seed(S, g)` and its bots seeded as a match seeds them, so the data depends
//! on the arguments only, not on the number of threads. With `--minutes`, no game starts after
//! that much wall time, and only the games before the first one not played are kept: the data
//! is then that of `--games` that many (`meta.json` says how many).
//!
//! Written to `DIR` as numpy `.npy` files (`N` decisions, `M` moves in all):
//!
//! | file | dtype, shape | what |
//! |---|---|---|
//! | `obs.npy` | u8 (N, OBS_SIZE) | the observation (every entry is a small whole number) |
//! | `offsets.npy` | u32 (N + 1) | decision `i`'s moves are `offsets[i]..offsets[i + 1]` |
//! | `action.npy` | u8 (M) | the move's action index |
//! | `share.npy` | f32 (M) | the share of the worlds the move won (0..1) |
//! | `worlds.npy` | u32 (N) | worlds each move of the decision was played out on |
//! | `played.npy` | u8 (N) | the action index the bot played |
//! | `result.npy` | i8 (N) | the seat's round: 1 won, -1 another seat won, 0 no winner |
//! | `game.npy` | u32 (N) | the game number `g` |
//!
//! and `meta.json` (the arguments, counts and wall time).
//!
//! `--playouts 0` makes `heuristic` the teacher instead (in the same seats): at each of its
//! turns with two moves or more (UNO calls and catches aside) its move has estimate 1 and the
//! others 0, over one "world": cheap data for imitating it (the training smoke's).

use std::collections::BTreeMap;
use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{mpsc, Arc};
use std::time::{Duration, Instant};

use uno::{Action, Game, Rules, Seat};
use uno_bots::{Bot, BotSpec, HeuristicBot, IsmctsBot};
use uno_nn::mapping::encode_at;
use uno_nn::obs;
use uno_nn::observe::write_view_observation;

/// Decisions after which a game is cut off (no winner), as matches do.
const MAX_DECISIONS: u32 = 5000;

struct Args {
    out: PathBuf,
    games: u64,
    seed: u64,
    playouts: u32,
    all_flat_every: u64,
    threads: usize,
    minutes: Option<f64>,
    /// Seats at the table (`--players`).
    players: usize,
}

fn parse() -> Result<Args, String> {
    let mut args = Args {
        out: PathBuf::new(),
        games: 100,
        seed: 31,
        playouts: 1000,
        all_flat_every: 10,
        threads: 1,
        minutes: None,
        players: 4,
    };
    let mut it = std::env::args().skip(1);
    while let Some(flag) = it.next() {
        let value = it.next().ok_or_else(|| format!("{flag} needs a value"))?;
        let num = |v: &str| v.parse::<u64>().map_err(|_| format!("{flag}: not a whole number: {v}"));
        match flag.as_str() {
            "--out" => args.out = PathBuf::from(value),
            "--games" => args.games = num(&value)?,
            "--seed" => args.seed = num(&value)?,
            "--playouts" => args.playouts = u32::try_from(num(&value)?).map_err(|e| e.to_string())?,
            "--all-flat-every" => args.all_flat_every = num(&value)?.max(1),
            "--minutes" => {
                args.minutes = Some(value.parse::<f64>().map_err(|_| format!("--minutes: not a number: {value}"))?)
            }
            "--players" => args.players = usize::try_from(num(&value)?).map_err(|e| e.to_string())?,
            "--threads" => args.threads = usize::try_from(num(&value)?).map_err(|e| e.to_string())?,
            _ => return Err(format!("unknown flag {flag}")),
        }
    }
    if args.out.as_os_str().is_empty() {
        return Err("--out DIR is required".into());
    }
    Ok(args)
}

/// The decisions of one game.
#[derive(Default)]
struct Records {
    obs: Vec<u8>,
    offsets: Vec<u32>,
    action: Vec<u8>,
    share: Vec<f32>,
    worlds: Vec<u32>,
    played: Vec<u8>,
    seat: Vec<u8>,
    result: Vec<i8>,
    game: Vec<u32>,
}

enum Player {
    Flat(Box<IsmctsBot>),
    /// `heuristic` as the teacher (`--playouts 0`): its move is the one estimate 1, the others 0.
    Teacher(HeuristicBot),
    Other(HeuristicBot),
}

impl Records {
    /// One decision: the observation in `row`, each compared move with its share, the worlds.
    #[allow(clippy::too_many_arguments)]
    fn push(
        &mut self,
        players: usize,
        g: u64,
        seat: Seat,
        row: &[f32],
        moves: &[(Action, f64)],
        worlds: u32,
        played: Action,
    ) -> Result<(), String> {
        let index = |a| {
            encode_at(players, seat, a)
                .and_then(|i| u8::try_from(i).ok())
                .ok_or_else(|| format!("game {g}: no action index for {a:?}"))
        };
        for &v in row {
            if v.fract() != 0.0 || !(0.0..=255.0).contains(&v) {
                return Err(format!("game {g}: observation entry {v} is not a byte"));
            }
            self.obs.push(v as u8);
        }
        self.offsets.push(self.action.len() as u32);
        for &(a, share) in moves {
            self.action.push(index(a)?);
            self.share.push(share as f32);
        }
        self.worlds.push(worlds);
        self.played.push(index(played)?);
        self.seat.push(seat.index() as u8);
        self.game.push(g as u32);
        Ok(())
    }

    /// Appends another game's decisions, their offsets shifted past the moves already here.
    fn append(&mut self, r: Records) {
        let base = self.action.len() as u32;
        self.offsets.extend(r.offsets.iter().map(|o| o + base));
        self.obs.extend(r.obs);
        self.action.extend(r.action);
        self.share.extend(r.share);
        self.worlds.extend(r.worlds);
        self.played.extend(r.played);
        self.seat.extend(r.seat);
        self.result.extend(r.result);
        self.game.extend(r.game);
    }
}

fn play(rules: &Arc<Rules>, args: &Args, g: u64) -> Result<Records, String> {
    let seed = seeding::sim_game_seed(args.seed, g);
    let players = args.players;
    let mut game = Game::new_fast(rules.clone(), players, seed).map_err(|e| e.to_string())?;
    let all_flat = g % args.all_flat_every == args.all_flat_every - 1;
    let flat = BotSpec::Flat { iterations: args.playouts.max(1) }.ismcts_config().unwrap_or_default();
    let mut bots: Vec<Player> = (0..players)
        .map(|s| {
            let bot_seed = seeding::sim_bot_seed(seed, s);
            if !(all_flat || s as u64 == g % players as u64) {
                Player::Other(HeuristicBot::new(bot_seed))
            } else if args.playouts == 0 {
                Player::Teacher(HeuristicBot::new(bot_seed))
            } else {
                let mut bot = IsmctsBot::new(flat.clone(), bot_seed);
                bot.record_estimates();
                Player::Flat(Box::new(bot))
            }
        })
        .collect();
    let mut rec = Records::default();
    let mut row = vec![0.0f32; obs::SIZE];
    let mut legal = Vec::new();
    let mut moves: Vec<(Action, f64)> = Vec::new();
    let mut decisions = 0u32;
    while !game.is_round_over() && decisions < MAX_DECISIONS {
        let seat = game.current();
        let view = game.view(seat);
        let action = match &mut bots[seat.index()] {
            Player::Other(bot) => bot.choose_view(&view),
            Player::Teacher(bot) => {
                let action = bot.choose_view(&view);
                view.legal_actions_into(&mut legal);
                moves.clear();
                let chosen = |a: Action| if a == action { 1.0 } else { 0.0 };
                moves.extend(
                    legal
                        .iter()
                        .filter(|a| !matches!(a, Action::CallUno | Action::CatchUno { .. }))
                        .map(|&a| (a, chosen(a))),
                );
                if moves.len() >= 2 && moves.iter().any(|m| m.0 == action) {
                    write_view_observation(&view, false, &mut row);
                    rec.push(players, g, seat, &row, &moves, 1, action)?;
                }
                action
            }
            Player::Flat(bot) => {
                write_view_observation(&view, false, &mut row);
                let action = bot.choose_view(&view);
                if let Some((estimates, worlds)) = bot.estimates() {
                    rec.push(players, g, seat, &row, estimates, worlds, action)?;
                }
                action
            }
        };
        game.apply_unchecked(seat, action);
        decisions += 1;
    }
    let winner = if game.is_round_over() { game.round_winner() } else { None };
    rec.result = rec
        .seat
        .iter()
        .map(|&s| match winner {
            Some(w) if w == Seat(s) => 1,
            Some(_) => -1,
            None => 0,
        })
        .collect();
    Ok(rec)
}

/// Little-endian bytes of the element types written here.
trait Le: Copy {
    fn put(self, out: &mut Vec<u8>);
}
impl Le for u8 {
    fn put(self, out: &mut Vec<u8>) {
        out.push(self);
    }
}
impl Le for i8 {
    fn put(self, out: &mut Vec<u8>) {
        out.extend(self.to_le_bytes());
    }
}
impl Le for u32 {
    fn put(self, out: &mut Vec<u8>) {
        out.extend(self.to_le_bytes());
    }
}
impl Le for f32 {
    fn put(self, out: &mut Vec<u8>) {
        out.extend(self.to_le_bytes());
    }
}

/// Writes `data` as the numpy file `dir/name` (format version 1.0).
fn npy<T: Le>(dir: &Path, name: &str, descr: &str, shape: &[usize], data: &[T]) -> std::io::Result<()> {
    let dims: Vec<String> = shape.iter().map(|d| d.to_string()).collect();
    let shape = if dims.len() == 1 { format!("({},)", dims[0]) } else { format!("({})", dims.join(", ")) };
    let mut header = format!("{{'descr': '{descr}', 'fortran_order': False, 'shape': {shape}, }}");
    // Magic, version, header length and header padded with spaces and a newline to 64 bytes.
    let total = 10 + header.len() + 1;
    header.push_str(&" ".repeat((64 - total % 64) % 64));
    header.push('\n');
    let mut f = BufWriter::new(File::create(dir.join(name))?);
    f.write_all(b"\x93NUMPY\x01\x00")?;
    f.write_all(&(header.len() as u16).to_le_bytes())?;
    f.write_all(header.as_bytes())?;
    let mut bytes = Vec::with_capacity(std::mem::size_of_val(data));
    for &x in data {
        x.put(&mut bytes);
    }
    f.write_all(&bytes)?;
    f.flush()
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args = parse()?;
    std::fs::create_dir_all(&args.out)?;
    let rules = Arc::new(Rules::preset("official")?);
    let t0 = Instant::now();
    let games = play_all(&rules, &args, t0)?;
    let played = games.len() as u64;
    let mut all = Records::default();
    for r in games {
        all.append(r);
    }
    let n = all.worlds.len();
    all.offsets.push(all.action.len() as u32);
    let dir = &args.out;
    write_npy(dir, &all)?;
    let secs = t0.elapsed().as_secs_f64();
    let meta = format!(
        "{{\"format\": \"tabletop-uno-teacher-1\", \"games\": {}, \"seats\": {}, \"seed\": {}, \"playouts\": {}, \
         \"all_flat_every\": {}, \"threads\": {}, \"decisions\": {n}, \"moves\": {}, \"seconds\": {secs:.1}}}\n",
        played,
        args.players,
        args.seed,
        args.playouts,
        args.all_flat_every,
        args.threads,
        all.action.len()
    );
    std::fs::write(dir.join("meta.json"), &meta)?;
    eprint!("{meta}");
    Ok(())
}

/// Plays the games on `--threads` threads, until `--games` or `--minutes` (counted from `t0`),
/// and returns the games before the first one left unplayed, in order.
fn play_all(rules: &Arc<Rules>, args: &Args, t0: Instant) -> Result<Vec<Records>, String> {
    let deadline = args.minutes.map(|m| t0 + Duration::from_secs_f64(60.0 * m));
    let next = AtomicU64::new(0);
    let done = AtomicU64::new(0);
    let step = (args.games / 20).max(1);
    let (send, receive) = mpsc::channel::<(u64, Result<Records, String>)>();
    std::thread::scope(|scope| {
        for _ in 0..args.threads.max(1) {
            let send = send.clone();
            let (next, done) = (&next, &done);
            scope.spawn(move || loop {
                if deadline.is_some_and(|d| Instant::now() >= d) {
                    break;
                }
                let g = next.fetch_add(1, Ordering::Relaxed);
                if g >= args.games {
                    break;
                }
                let r = play(rules, args, g);
                let n = done.fetch_add(1, Ordering::Relaxed) + 1;
                if n.is_multiple_of(step) || n == args.games {
                    eprintln!("{n}/{} games, {:.0} s", args.games, t0.elapsed().as_secs_f64());
                }
                if send.send((g, r)).is_err() {
                    break;
                }
            });
        }
    });
    drop(send);
    let mut finished: BTreeMap<u64, Records> = BTreeMap::new();
    for (g, r) in receive {
        finished.insert(g, r?);
    }
    // Only the games before the first one left unplayed (by `--minutes`): the data is then
    // exactly that of `--games` that many.
    let mut games = Vec::new();
    while let Some(r) = finished.remove(&(games.len() as u64)) {
        games.push(r);
    }
    Ok(games)
}

/// Writes the decisions `all` (their offsets closed by the end) as the `.npy` files in `dir`.
fn write_npy(dir: &Path, all: &Records) -> std::io::Result<()> {
    let n = all.worlds.len();
    npy(dir, "obs.npy", "|u1", &[n, obs::SIZE], &all.obs)?;
    npy(dir, "offsets.npy", "<u4", &[n + 1], &all.offsets)?;
    npy(dir, "action.npy", "|u1", &[all.action.len()], &all.action)?;
    npy(dir, "share.npy", "<f4", &[all.share.len()], &all.share)?;
    npy(dir, "worlds.npy", "<u4", &[n], &all.worlds)?;
    npy(dir, "played.npy", "|u1", &[n], &all.played)?;
    npy(dir, "result.npy", "|i1", &[n], &all.result)?;
    npy(dir, "game.npy", "<u4", &[n], &all.game)
}
