//! `tabletop duel`: play Duel (seed 001) in the terminal, simulate bot against bot, benchmark
//! the search.

use std::io::{self, BufRead, Write};
use std::num::NonZeroUsize;
use std::time::{Duration, Instant};

use anyhow::{bail, Context};
use duel::sim::{simulate_one, SimConfig, Tally};
use duel::{
    Action, Bot, BotKind, Cell, Coord, Difficulty, DuelError, DuelGame, Event, SearchBot, SetupMode, Side, Stage,
    DEFAULT_HEIGHT, DEFAULT_WIDTH,
};
use rayon::prelude::*;

use crate::output::{self, Out};
use crate::sim_run;

#[derive(clap::Subcommand)]
pub enum DuelCommand {
    /// Play Duel in the terminal: you are red, the computer is black.
    ///
    /// Setup: type a cell and a key, e.g. `c3 b` (round 1, blocks), `a6 5` (round 2, your
    /// red pieces) and `b1 4` (round 3, black pieces); `next` proceeds to the next round.
    /// Play: type a red piece's cell and w (up), a (left), s (down) or d (right), e.g. `a6 w`;
    /// a cell alone selects the piece and the key can follow on the next line. `end` ends the
    /// play stage. Cells are a column letter and a row number, a1 at the top left.
    Play(PlayArgs),
    /// Simulate bot against bot from seeded random setups and report wins, draws and losses.
    ///
    /// Bots: random, greedy (best immediate capture, else a random move), search (default
    /// difficulty, hard) or search:easy|medium|hard|expert. The last line is
    /// `games=G red_score=X black_score=Y` (win 1, draw ½, loss 0; the round cap is a draw).
    /// Results depend only on the arguments, not on the number of threads.
    Sim(SimArgs),
    /// Measure the search: nodes per second and time per move at each difficulty, on
    /// positions from random games.
    Bench(BenchArgs),
}

#[derive(clap::Args)]
pub struct PlayArgs {
    /// Grid width (1-26).
    #[arg(long, default_value_t = DEFAULT_WIDTH, value_parser = grid_side)]
    width: u8,
    /// Grid height (1-26).
    #[arg(long, default_value_t = DEFAULT_HEIGHT, value_parser = grid_side)]
    height: u8,
    /// The computer's strength: easy, medium, hard or expert.
    #[arg(long, default_value = "hard")]
    difficulty: Difficulty,
}

#[derive(clap::Args)]
pub struct SimArgs {
    /// The bot playing red (moves first).
    #[arg(long, default_value = "random")]
    red: BotKind,
    /// The bot playing black (must attack when it can).
    #[arg(long, default_value = "search")]
    black: BotKind,
    /// Number of games, at least 1.
    #[arg(long, default_value_t = 100, value_parser = sim_run::parse_games)]
    games: u64,
    /// Seed of the run: the setups and every bot's random choices follow from it.
    #[arg(long, default_value_t = 1, value_parser = crate::sim_run::parse_seed)]
    seed: u64,
    /// Grid width (1-26).
    #[arg(long, default_value_t = DEFAULT_WIDTH, value_parser = grid_side)]
    width: u8,
    /// Grid height (1-26).
    #[arg(long, default_value_t = DEFAULT_HEIGHT, value_parser = grid_side)]
    height: u8,
    /// A game still running after this many rounds is a draw.
    #[arg(long, default_value_t = 200, value_parser = |s: &str| sim_run::parse_count(s).and_then(|n| u32::try_from(n).map_err(|_| "too many rounds".to_string())))]
    max_rounds: u32,
    /// mirrored: same ranks, black's cells the mirror image of red's, symmetric blocks;
    /// random: independent armies.
    #[arg(long, default_value = "mirrored")]
    setup: SetupMode,
    /// Worker threads (default and maximum: the number of cores; the results do not depend on it).
    #[arg(long, value_parser = sim_run::parse_threads)]
    threads: Option<NonZeroUsize>,
    /// Write the results as JSON to this file instead of the table; `-`: to standard output.
    #[arg(long, value_name = "FILE")]
    json: Option<std::path::PathBuf>,
}

#[derive(clap::Args)]
pub struct BenchArgs {
    /// Number of positions searched at each difficulty.
    #[arg(long, default_value_t = 100, value_parser = sim_run::parse_count)]
    positions: u64,
    /// Seed of the positions.
    #[arg(long, default_value_t = 1, value_parser = crate::sim_run::parse_seed)]
    seed: u64,
    /// Grid width (1-26).
    #[arg(long, default_value_t = DEFAULT_WIDTH, value_parser = grid_side)]
    width: u8,
    /// Grid height (1-26).
    #[arg(long, default_value_t = DEFAULT_HEIGHT, value_parser = grid_side)]
    height: u8,
}

/// `--width` and `--height`: 1 to 26 cells (the columns are the letters a to z).
fn grid_side(text: &str) -> Result<u8, String> {
    match text.parse::<u8>() {
        Ok(n) if (1..=26).contains(&n) => Ok(n),
        _ => Err(format!("a grid side is 1 to 26 cells (got '{}')", text.chars().take(16).collect::<String>())),
    }
}

pub fn run(cmd: DuelCommand) -> anyhow::Result<()> {
    match cmd {
        DuelCommand::Play(a) => {
            let stdin = io::stdin();
            play(&mut stdin.lock(), &mut Out::new(), &a)
        }
        DuelCommand::Sim(a) => sim(&a),
        DuelCommand::Bench(a) => bench(&a),
    }
}

/// Draws the grid: `(3)` a red piece, `[3]` a black piece, `###` a block, `.` empty, so sides
/// and ranks read without colour.
fn render(game: &DuelGame) -> String {
    let mut s = String::new();
    s.push_str("    ");
    for c in 0..game.width() {
        s.push_str(&format!(" {:^3}", char::from(b'a' + c)));
    }
    s.push('\n');
    for r in 0..game.height() {
        s.push_str(&format!("{:>3} ", r + 1));
        for c in 0..game.width() {
            let cell = match game.cell(Coord::new(c, r)) {
                Some(Cell::Block) => "###".to_string(),
                Some(Cell::Piece(p)) if p.side == Side::Red => format!("({})", p.rank),
                Some(Cell::Piece(p)) => format!("[{}]", p.rank),
                _ => " . ".to_string(),
            };
            s.push(' ');
            s.push_str(&cell);
        }
        s.push('\n');
    }
    s.push_str("    (n) your red piece n   [n] black piece n   ### block   . empty\n");
    s
}

fn status_line(game: &DuelGame) -> String {
    let st = game.status();
    match st.stage {
        Stage::Setup { round } => format!("Setup stage, round {round} of 3"),
        _ => format!("Round {}   red pieces left: {}   black pieces left: {}", st.round, st.red_left, st.black_left),
    }
}

fn prompt(game: &DuelGame, selected: Option<Coord>) -> String {
    if let Some(c) = selected {
        return match game.stage() {
            Stage::Setup { round: 1 } => format!("Cell {c} selected: type b for a block."),
            Stage::Setup { .. } => format!("Cell {c} selected: type a number from 1 to 6."),
            _ => format!("Piece {c} selected: type w (up), a (left), s (down) or d (right)."),
        };
    }
    match game.stage() {
        Stage::Setup { round: 1 } => {
            "Setup round 1, blocks: a cell and b (e.g. c3 b), or `next` for round 2.".to_string()
        }
        Stage::Setup { round: 2 } => {
            "Setup round 2, up to 12 red pieces: a cell and 1-6 (e.g. a6 3), or `next`.".to_string()
        }
        Stage::Setup { .. } => {
            "Setup round 3, up to 12 black pieces: a cell and 1-6 (e.g. b1 4), or `next`.".to_string()
        }
        Stage::Play { .. } => "Your turn: a red piece's cell and w/a/s/d (e.g. a6 w), or `end` to stop.".to_string(),
        Stage::End { .. } => String::new(),
    }
}

/// The combat rule, shown with every fight so the result can be understood.
const FIGHT_RULE: &str =
    "(The attacker wins if its number is greater, or if it is a 1 attacking a 6;\n   otherwise the attacker is eliminated.)";

/// Every command of the terminal game, for `help`.
const PLAY_HELP: &str = "\
Commands:
  CELL KEY    setup: a cell and b (a block, round 1) or a number 1-6 (a piece,
              rounds 2 and 3), e.g. `c3 b`, `a6 5`;
              play: a red piece's cell and w (up), a (left), s (down) or
              d (right), e.g. `a6 w`. The space may be left out: `a6w`.
  CELL        select a cell or piece; the key can follow on the next line.
              Typing another of your cells selects that one instead.
  next        setup: go on to the next round.
  end         play: end the play stage (the game is then scored).
  help, h, ?  this list.
  q, quit     leave the game (asks first).
Cells are a column letter and a row number, a1 at the top left.
";

fn describe(event: &Event) -> Option<String> {
    match event {
        Event::Moved { side, from, to, dir } => Some(format!(
            "{} moves {from} {} ({}) to {to}.",
            if *side == Side::Red { "You: red" } else { "Computer: black" },
            dir.name(),
            dir.key()
        )),
        Event::Combat { at, attacker, defender, eliminated } => {
            let lost = if *eliminated == attacker.side { attacker } else { defender };
            Some(format!(
                "Combat on {at}: {} {} attacks {} {}; the {} {} is eliminated.\n  {FIGHT_RULE}",
                attacker.side, attacker.rank, defender.side, defender.rank, lost.side, lost.rank
            ))
        }
        Event::PlayStarted => Some("The play stage begins.".to_string()),
        Event::PlayEnded { reason, outcome } => Some(format!("{} {}", reason.message(), outcome.message())),
        _ => None,
    }
}

fn say(out: &mut dyn Write, text: &str) -> anyhow::Result<()> {
    writeln!(out, "{}", output::wrap(text)).context("writing to the terminal")
}

/// `a6w` as `a6` and `w`: a cell followed at once by a letter key (w, a, s, d or b).
fn split_cell_key(token: &str) -> Option<(&str, &str)> {
    let (cell, key) = token.split_at(token.len().checked_sub(1)?);
    let is_key = matches!(key, "w" | "a" | "s" | "d" | "b" | "W" | "A" | "S" | "D" | "B");
    (is_key && cell.len() >= 2 && cell.parse::<Coord>().is_ok()).then_some((cell, key))
}

/// The terminal game; reads commands line by line so it can be scripted.
/// The command word nearest a typo (`nxt`: `next`).
fn nearest_command(word: &str) -> Option<&'static str> {
    crate::uno_play::nearest(&word.to_ascii_lowercase(), &["next", "end", "help", "quit", "exit"])
}

/// Every Duel command's grid: at least one cell for each side (a 1x1 grid could never leave setup).
fn check_grid(width: u8, height: u8) -> anyhow::Result<()> {
    if usize::from(width) * usize::from(height) < 2 {
        bail!("a game needs at least 2 cells, one for each side (asked for {width}x{height})");
    }
    Ok(())
}

fn play(input: &mut dyn BufRead, out: &mut dyn Write, args: &PlayArgs) -> anyhow::Result<()> {
    check_grid(args.width, args.height)?;
    let mut game = DuelGame::new(args.width, args.height).map_err(anyhow::Error::new)?;
    let mut bot = SearchBot::new(args.difficulty);
    say(
        out,
        &format!(
            "Duel on a {}x{} grid. You are red; the computer (black, {}) must attack when it can.\nType help for the commands.",
            args.width, args.height, args.difficulty
        ),
    )?;
    let mut selected: Option<Coord> = None;
    let mut show_board = true;
    let mut line = String::new();
    loop {
        if game.is_over() {
            break;
        }
        if show_board {
            say(out, &status_line(&game))?;
            write!(out, "{}", render(&game)).context("writing to the terminal")?;
            show_board = false;
        }
        write!(out, "{}\n> ", prompt(&game, selected)).context("writing to the terminal")?;
        out.flush().context("writing to the terminal")?;
        line.clear();
        if input.read_line(&mut line).context("reading a command")? == 0 {
            say(out, "\nInput ended; the game is left unfinished.")?;
            return Ok(());
        }
        let words: Vec<&str> = line.split_whitespace().collect();
        let setup = matches!(game.stage(), Stage::Setup { .. });
        let joined = match words.as_slice() {
            [one] => split_cell_key(one),
            _ => None,
        };
        let words: Vec<&str> = match joined {
            Some((cell, key)) => vec![cell, key],
            None => words,
        };
        let action = match words.as_slice() {
            [] => continue,
            ["next"] => Ok(Action::NextRound),
            ["end"] => Ok(Action::End),
            ["help" | "h" | "?"] => {
                write!(out, "{PLAY_HELP}").context("writing to the terminal")?;
                continue;
            }
            ["q" | "quit" | "exit"] => {
                write!(out, "Leave the game? The game is not saved. Type y to leave: ")
                    .context("writing to the terminal")?;
                out.flush().context("writing to the terminal")?;
                line.clear();
                input.read_line(&mut line).context("reading a command")?;
                if matches!(line.trim(), "y" | "Y" | "yes") {
                    say(out, &format!("Goodbye. {}", status_line(&game)))?;
                    return Ok(());
                }
                say(out, "The game goes on.")?;
                continue;
            }
            // A cell alone (re)selects: a key is one character, a cell has a digit and two or more.
            [one] if one.chars().any(|c| c.is_ascii_digit()) && one.len() >= 2 => match one.parse::<Coord>() {
                Ok(c) => {
                    // In the play stage only one of red's own pieces can be selected to move:
                    // the engine's own refusal, said at once rather than after the key.
                    let refusal = match (setup, game.cell(c)) {
                        (false, Some(Cell::Piece(p))) if p.side == Side::Red => None,
                        (false, Some(other)) => {
                            Some(DuelError::NotOwnPiece { side: Side::Red, cell: c, holds: other.describe() })
                        }
                        (false, None) => {
                            Some(DuelError::OutsideGrid { cell: c, width: game.width(), height: game.height() })
                        }
                        (true, _) => None,
                    };
                    match refusal {
                        Some(e) => {
                            selected = None;
                            say(out, &format!("Error: {e}"))?;
                        }
                        None => selected = Some(c),
                    }
                    continue;
                }
                Err(e) => Err(e),
            },
            // A misspelt command word, not a key: say which was meant.
            [word] if word.chars().count() >= 3 && nearest_command(word).is_some() => {
                let near = nearest_command(word).unwrap_or_default();
                say(out, &format!("Error: '{word}' is not a command: did you mean '{near}'? (help lists them)"))?;
                continue;
            }
            [key] => match selected {
                Some(cell) if setup => Ok(Action::place(cell, *key)),
                Some(cell) => Ok(Action::mv(cell, *key)),
                None => Err(DuelError::BadCell { text: (*key).to_string() }),
            },
            [cell, key] => {
                cell.parse::<Coord>().map(|c| if setup { Action::place(c, *key) } else { Action::mv(c, *key) })
            }
            _ => Err(DuelError::BadCell { text: line.trim().to_string() }),
        };
        let keep = match &action {
            Ok(Action::Move { cell, .. }) => Some(*cell),
            _ => None,
        };
        match action.and_then(|a| game.apply(a)) {
            Err(e) => {
                // A wrong key keeps the piece selected so the user can type another one.
                selected = match e {
                    DuelError::NotMoveKey { .. } => keep,
                    _ => None,
                };
                say(out, &format!("Error: {e}"))?;
            }
            Ok(events) => {
                selected = None;
                show_board = true;
                for ev in &events {
                    if let Some(t) = describe(ev) {
                        say(out, &t)?;
                    }
                }
                if matches!(game.stage(), Stage::Play { to_move: Side::Black, .. }) {
                    let events = game.computer_move(&mut bot).context("the computer's move")?;
                    for ev in &events {
                        if let Some(t) = describe(ev) {
                            say(out, &t)?;
                        }
                    }
                }
            }
        }
    }
    say(out, &status_line(&game))?;
    write!(out, "{}", render(&game)).context("writing to the terminal")?;
    if let Some(o) = game.status().outcome {
        say(out, &format!("Game over. {}", o.message()))?;
    }
    Ok(())
}

fn sim(a: &SimArgs) -> anyhow::Result<()> {
    if a.max_rounds == 0 {
        bail!("--max-rounds must be at least 1");
    }
    let cfg = SimConfig {
        red: a.red,
        black: a.black,
        seed: a.seed,
        width: a.width,
        height: a.height,
        max_rounds: a.max_rounds,
        setup: a.setup,
    };
    check_grid(a.width, a.height)?;
    // Fail early on a bad grid size rather than once per game.
    duel::sim::setup_for(&cfg, 0).map_err(anyhow::Error::new)?;
    let mut json_file = a.json.as_deref().map(|path| output::Target::open("--json", path)).transpose()?;
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(sim_run::threads(a.threads))
        .build()
        .context("starting worker threads")?;
    let progress = sim_run::Progress::new(a.games);
    let start = Instant::now();
    let results: Result<Vec<_>, DuelError> = pool.install(|| {
        (0..a.games)
            .into_par_iter()
            .map(|i| {
                let r = simulate_one(&cfg, i);
                progress.inc(1);
                r
            })
            .collect()
    });
    progress.finish();
    let results = results.map_err(anyhow::Error::new)?;
    let mut t = Tally::default();
    for r in &results {
        t.add(r);
    }
    let secs = start.elapsed().as_secs_f64();
    match &mut json_file {
        Some(target) => target.write(&(serde_json::to_string_pretty(&sim_json(a, &t, secs))? + "\n")),
        None => Ok(output::print(&sim_table(a, &t, secs))?),
    }
}

/// Red's and black's score (win 1, draw ½) with its 95% interval.
fn side_scores(t: &Tally) -> [(f64, (f64, f64)); 2] {
    let n = t.games();
    let red = t.red_wins as f64 + 0.5 * t.draws as f64;
    let black = t.black_wins as f64 + 0.5 * t.draws as f64;
    [(t.red_score(), sim_run::wilson(red, n)), (t.black_score(), sim_run::wilson(black, n))]
}

fn sim_table(a: &SimArgs, t: &Tally, secs: f64) -> String {
    let mut s = format!(
        "Duel simulation: {} games, seed {}, {}x{} grid, {} setups, round cap {}\n",
        a.games, a.seed, a.width, a.height, a.setup, a.max_rounds
    );
    s += &format!(
        "{:<6} {:<14} {:>6} {:>6} {:>7} {:>8} {:>17}\n",
        "side", "bot", "wins", "draws", "losses", "score", "95% CI"
    );
    let [red, black] = side_scores(t);
    for (side, bot, wins, losses, (score, ci)) in
        [("red", a.red, t.red_wins, t.black_wins, red), ("black", a.black, t.black_wins, t.red_wins, black)]
    {
        s += &format!(
            "{:<6} {:<14} {:>6} {:>6} {:>7} {:>8} {:>17}\n",
            side,
            bot.to_string(),
            wins,
            t.draws,
            losses,
            sim_run::percent(score),
            sim_run::interval(ci)
        );
    }
    s += &format!("average rounds per game {:.1}; {secs:.1} s\n", t.rounds as f64 / t.games().max(1) as f64);
    s += &format!("games={} red_score={:.4} black_score={:.4}\n", t.games(), t.red_score(), t.black_score());
    s
}

fn sim_json(a: &SimArgs, t: &Tally, secs: f64) -> serde_json::Value {
    let [red, black] = side_scores(t);
    let side = |bot: BotKind, wins: u64, losses: u64, (score, (lo, hi)): (f64, (f64, f64))| {
        serde_json::json!({ "bot": bot.to_string(), "wins": wins, "draws": t.draws, "losses": losses,
            "score": score, "ci95": [lo, hi] })
    };
    serde_json::json!({
        "games": t.games(),
        // A decimal string, as every 64-bit seed the project writes in JSON (`seeding::wide`).
        "seed": a.seed.to_string(),
        "width": a.width,
        "height": a.height,
        "setup": a.setup.to_string(),
        "max_rounds": a.max_rounds,
        "rounds": t.rounds,
        "seconds": secs,
        "red": side(a.red, t.red_wins, t.black_wins, red),
        "black": side(a.black, t.black_wins, t.red_wins, black),
    })
}

fn bench(a: &BenchArgs) -> anyhow::Result<()> {
    if a.positions == 0 {
        bail!("--positions must be at least 1");
    }
    check_grid(a.width, a.height)?;
    // Positions with black to move, taken from random games a few rounds in.
    let mut positions = Vec::new();
    let cfg = SimConfig {
        red: BotKind::Random,
        black: BotKind::Random,
        seed: a.seed,
        width: a.width,
        height: a.height,
        max_rounds: 200,
        setup: SetupMode::Mirrored,
    };
    let mut i = 0u64;
    while (positions.len() as u64) < a.positions && i < a.positions * 20 {
        let mut game = DuelGame::from_position(duel::sim::setup_for(&cfg, i).map_err(anyhow::Error::new)?);
        let plies = (seeding::duel_game_seed(a.seed, i) % 30) * 2 + 1;
        let mut red = BotKind::Random.build(seeding::duel_game_seed(a.seed, i) ^ 1);
        let mut black = BotKind::Random.build(seeding::duel_game_seed(a.seed, i) ^ 2);
        for p in 0..plies {
            if game.is_over() {
                break;
            }
            let bot: &mut dyn Bot = if p % 2 == 0 { red.as_mut() } else { black.as_mut() };
            game.bot_move(bot).map_err(anyhow::Error::new)?;
        }
        if matches!(game.stage(), Stage::Play { to_move: Side::Black, .. }) {
            positions.push(game.position().clone());
        }
        i += 1;
    }
    let mut out = Out::new();
    writeln!(
        out,
        "Search benchmark: {} positions (black to move, from random games), {}x{} grid, seed {}",
        positions.len(),
        a.width,
        a.height,
        a.seed
    )?;
    writeln!(
        out,
        "{:<10} {:>10} {:>10} {:>10} {:>12} {:>11} {:>9}",
        "difficulty", "ms/move", "max ms", "nodes/move", "nodes/s", "node budget", "avg depth"
    )?;
    for d in Difficulty::ALL {
        let mut total = Duration::ZERO;
        let mut max = Duration::ZERO;
        let (mut nodes, mut depth, mut searched) = (0u64, 0u64, 0u64);
        for p in &positions {
            // A fresh bot per position: no table carried over, the worst case of a move.
            let mut bot = SearchBot::new(d);
            let t0 = Instant::now();
            bot.choose(p);
            let el = t0.elapsed();
            total += el;
            max = max.max(el);
            let info = bot.last_info();
            nodes += info.nodes;
            if info.nodes > 0 {
                depth += u64::from(info.depth);
                searched += 1;
            }
        }
        let n = positions.len().max(1) as f64;
        writeln!(
            out,
            "{:<10} {:>10.2} {:>10.2} {:>10.0} {:>12.0} {:>11} {:>9.1}",
            d.to_string(),
            total.as_secs_f64() * 1e3 / n,
            max.as_secs_f64() * 1e3,
            nodes as f64 / n,
            nodes as f64 / total.as_secs_f64().max(1e-9),
            d.limits().max_nodes,
            depth as f64 / searched.max(1) as f64
        )?;
    }
    Ok(())
}
