//! `tabletop uno replay`: a recorded game again, step by step or printed whole, from one seat's
//! point of view (what that seat saw then, nothing more) or from above (every hand).
//!
//! Records are the engine's `GameRecord` JSON: what `tabletop uno watch --record FILE` and
//! `tabletop uno play --record FILE` write, and what the server exports.

use std::io::{BufRead, IsTerminal, Write};

use anyhow::Context;
use uno::courses::cs205::player_name;
use uno::{Event, Game, GameRecord, Rules, Seat};

use crate::record_file::load;
use crate::seats_arg::seat_arg;
use crate::words::{card_words, narrate};

#[derive(clap::Args)]
pub struct Args {
    /// The record: a JSON file (`-` for standard input).
    record: std::path::PathBuf,
    /// Show the game as this seat saw it (1 to the number of players): its own hand and draws,
    /// the others' card counts. Without it, every hand is shown.
    #[arg(long, value_parser = crate::sim_run::parse_seat)]
    seat: Option<usize>,
    /// Print the whole game at once instead of stepping through it (the default when standard
    /// input or output is not a terminal).
    #[arg(long)]
    print: bool,
}

/// One step of the replay: the action's index and the events it caused, as the viewer saw them.
struct Frame {
    ply: Option<usize>,
    lines: Vec<String>,
    state: String,
}

/// The table as `viewer` sees it now.
fn state(game: &Game, viewer: Option<Seat>) -> String {
    let mut out = String::new();
    let top = card_words(game.top());
    out += &format!(
        "  top: {top} · colour: {} · {} to act · draw pile {}\n",
        game.color().map_or("not chosen yet", |c| c.name()),
        player_name(game.current().index()),
        game.draw_pile().len()
    );
    for seat in game.player_count().seats() {
        let hand = game.hand(seat);
        let shown = if viewer.is_none() || viewer == Some(seat) {
            hand.iter().map(|&c| card_words(c)).collect::<Vec<_>>().join(", ")
        } else {
            format!("{} card{}", hand.len(), if hand.len() == 1 { "" } else { "s" })
        };
        let you = if viewer == Some(seat) { " (you)" } else { "" };
        out += &format!("  {}{you}: {shown}\n", player_name(seat.index()));
    }
    out
}

fn frames(record: &GameRecord, viewer: Option<Seat>) -> anyhow::Result<Vec<Frame>> {
    let rules = Rules::new(record.rules.clone())?;
    let mut events = Vec::new();
    let mut game = Game::new(rules, record.players, record.seed)?;
    game.restart_with_events(record.seed, &mut events);
    let name = |s: Seat| player_name(s.index());
    // From above every draw is shown; a seat sees only its own.
    let say = |events: &[Event]| -> Vec<String> {
        events
            .iter()
            .map(|e| match viewer {
                Some(_) => narrate(&e.redacted_for(viewer), &name),
                None => narrate(e, &name),
            })
            .collect()
    };
    let mut out = vec![Frame { ply: None, lines: say(&events), state: state(&game, viewer) }];
    for (index, m) in record.actions.iter().enumerate() {
        let events = game.apply(m.seat, m.action).with_context(|| format!("action {}", index + 1))?;
        out.push(Frame { ply: Some(index), lines: say(&events), state: state(&game, viewer) });
    }
    Ok(out)
}

fn render(frame: &Frame, total: usize) -> String {
    let head = match frame.ply {
        None => format!("-- the deal (0/{total})\n"),
        Some(p) => format!("-- action {}/{total}\n", p + 1),
    };
    let mut out = head;
    for line in &frame.lines {
        out += &format!("{line}\n");
    }
    out += &frame.state;
    out
}

pub fn run(args: Args) -> anyhow::Result<()> {
    let record = load(&args.record)?;
    let viewer = args.seat.map(|s| seat_arg(s, record.players)).transpose()?;
    let frames = frames(&record, viewer)?;
    let total = record.actions.len();
    let interactive = !args.print
        && args.record.as_os_str() != "-"
        && std::io::stdin().is_terminal()
        && std::io::stdout().is_terminal();
    if !interactive {
        let mut out = std::io::BufWriter::new(crate::output::Out::new());
        for frame in &frames {
            out.write_all(render(frame, total).as_bytes())?;
        }
        out.flush()?;
        return Ok(());
    }
    let mut at = 0usize;
    let stdin = std::io::stdin();
    let mut line = String::new();
    loop {
        crate::output::print(&render(&frames[at], total))?;
        crate::output::print("[Enter] next · b back · NUMBER go to action · e end · q quit > ")?;
        std::io::stdout().flush()?;
        line.clear();
        if stdin.lock().read_line(&mut line)? == 0 {
            return Ok(());
        }
        match line.trim() {
            "" | "n" => at = (at + 1).min(frames.len() - 1),
            "b" | "p" => at = at.saturating_sub(1),
            "e" => at = frames.len() - 1,
            "q" => return Ok(()),
            other => match other.parse::<usize>() {
                Ok(n) if n <= total => at = n,
                _ => crate::output::print(&format!("(an action number from 0 to {total}, or Enter, b, e, q)\n"))?,
            },
        }
    }
}
