//! `tabletop duel play`: the game in the terminal, you red against the computer.

use std::io::{BufRead, Write};

use anyhow::Context;
use duel::{Action, Cell, Coord, DuelError, DuelGame, Event, SearchBot, Side, Stage};

use super::{check_grid, PlayArgs};
use crate::output;

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

/// The command word nearest a typo (`nxt`: `next`).
fn nearest_command(word: &str) -> Option<&'static str> {
    crate::words::nearest(&word.to_ascii_lowercase(), &["next", "end", "help", "quit", "exit"])
}

/// The terminal game; reads commands line by line so it can be scripted.
pub(super) fn play(input: &mut dyn BufRead, out: &mut dyn Write, args: &PlayArgs) -> anyhow::Result<()> {
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
    while !game.is_over() {
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
        let action = match answer(typed(&line, &game, selected), input, out, &game, &mut selected)? {
            Next::Ask => continue,
            Next::Stop => return Ok(()),
            Next::Try(action) => action,
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
                answer_move(out, &mut game, &mut bot, &events)?;
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

/// What `play` does after a line: ask for the next, stop, or try an action.
enum Next {
    Ask,
    Stop,
    Try(Result<Action, DuelError>),
}

/// Answers a typed line that is not an action (help, quit, a selection, a refusal) and says
/// what comes next.
fn answer(
    typed: Typed,
    input: &mut dyn BufRead,
    out: &mut dyn Write,
    game: &DuelGame,
    selected: &mut Option<Coord>,
) -> anyhow::Result<Next> {
    match typed {
        Typed::Nothing => {}
        Typed::Help => write!(out, "{PLAY_HELP}").context("writing to the terminal")?,
        Typed::Quit => {
            if confirm_quit(input, out, game)? {
                return Ok(Next::Stop);
            }
        }
        Typed::Select(cell) => *selected = Some(cell),
        Typed::Refused(e) => {
            *selected = None;
            say(out, &format!("Error: {e}"))?;
        }
        Typed::Misspelt(word, near) => {
            say(out, &format!("Error: '{word}' is not a command: did you mean '{near}'? (help lists them)"))?
        }
        Typed::Act(action) => return Ok(Next::Try(action)),
    }
    Ok(Next::Ask)
}

/// What a line typed in `play` asks for.
enum Typed {
    /// An empty line.
    Nothing,
    Help,
    Quit,
    /// A cell alone: the piece to move (or the cell to set up) next.
    Select(Coord),
    /// A cell alone that cannot be selected: said at once, and the selection cleared.
    Refused(DuelError),
    /// A misspelt command word, and the command meant.
    Misspelt(String, &'static str),
    /// An action for the engine, or why the line is not one.
    Act(Result<Action, DuelError>),
}

/// Reads a line typed in `play`: a command word, a cell, a key, or a cell and a key.
fn typed(line: &str, game: &DuelGame, selected: Option<Coord>) -> Typed {
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
    Typed::Act(match words.as_slice() {
        [] => return Typed::Nothing,
        ["next"] => Ok(Action::NextRound),
        ["end"] => Ok(Action::End),
        ["help" | "h" | "?"] => return Typed::Help,
        ["q" | "quit" | "exit"] => return Typed::Quit,
        // A cell alone (re)selects: a key is one character, a cell has a digit and two or more.
        [one] if one.chars().any(|c| c.is_ascii_digit()) && one.len() >= 2 => match one.parse::<Coord>() {
            Ok(c) => return select(game, setup, c),
            Err(e) => Err(e),
        },
        // A misspelt command word, not a key: say which was meant.
        [word] if word.chars().count() >= 3 && nearest_command(word).is_some() => {
            return Typed::Misspelt((*word).to_string(), nearest_command(word).unwrap_or_default());
        }
        [key] => match selected {
            Some(cell) if setup => Ok(Action::place(cell, *key)),
            Some(cell) => Ok(Action::mv(cell, *key)),
            None => Err(DuelError::BadCell { text: (*key).to_string() }),
        },
        [cell, key] => cell.parse::<Coord>().map(|c| if setup { Action::place(c, *key) } else { Action::mv(c, *key) }),
        _ => Err(DuelError::BadCell { text: line.trim().to_string() }),
    })
}

/// Selecting cell `c`: in the play stage only one of red's own pieces can be selected to move
/// (the engine's own refusal, said at once rather than after the key).
fn select(game: &DuelGame, setup: bool, c: Coord) -> Typed {
    let refusal = match (setup, game.cell(c)) {
        (false, Some(Cell::Piece(p))) if p.side == Side::Red => None,
        (false, Some(other)) => Some(DuelError::NotOwnPiece { side: Side::Red, cell: c, holds: other.describe() }),
        (false, None) => Some(DuelError::OutsideGrid { cell: c, width: game.width(), height: game.height() }),
        (true, _) => None,
    };
    match refusal {
        Some(e) => Typed::Refused(e),
        None => Typed::Select(c),
    }
}

/// Asks before leaving the game; whether the user leaves.
fn confirm_quit(input: &mut dyn BufRead, out: &mut dyn Write, game: &DuelGame) -> anyhow::Result<bool> {
    write!(out, "Leave the game? The game is not saved. Type y to leave: ").context("writing to the terminal")?;
    out.flush().context("writing to the terminal")?;
    let mut line = String::new();
    input.read_line(&mut line).context("reading a command")?;
    if matches!(line.trim(), "y" | "Y" | "yes") {
        say(out, &format!("Goodbye. {}", status_line(game)))?;
        return Ok(true);
    }
    say(out, "The game goes on.")?;
    Ok(false)
}

/// Says what the user's action did, then makes the computer's move when it is black's turn.
fn answer_move(out: &mut dyn Write, game: &mut DuelGame, bot: &mut SearchBot, events: &[Event]) -> anyhow::Result<()> {
    for ev in events {
        if let Some(t) = describe(ev) {
            say(out, &t)?;
        }
    }
    if matches!(game.stage(), Stage::Play { to_move: Side::Black, .. }) {
        let events = game.computer_move(bot).context("the computer's move")?;
        for ev in &events {
            if let Some(t) = describe(ev) {
                say(out, &t)?;
            }
        }
    }
    Ok(())
}
