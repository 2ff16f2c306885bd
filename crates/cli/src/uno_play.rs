//! `tabletop uno play`: you against bots in the terminal.
//!
//! You are Player 1. Before each of your decisions the table is shown (the top card and the
//! colour in play, every other hand's size, your hand numbered, playable cards starred);
//! everything that happens is narrated as it happens, your own draws with their cards. Bad
//! input is explained and asked again; end of input ends the game cleanly.

use std::io::{BufRead, Write};

use anyhow::bail;
use uno::rules::{MultiPlay, SevenZero, UnoCall};
use uno::{Action, Color, Direction, Event, Game, Phase, Seat};

use crate::bots_arg::make_bots;
use crate::rules_arg::RulesArgs;
use crate::seats_arg::player_count;
use crate::words::{card_words, narrate, nearest};

#[derive(clap::Args)]
pub struct Args {
    #[command(flatten)]
    rules: RulesArgs,
    /// Number of players, you included (default: 4, or the nearest count the rules allow).
    #[arg(long, value_parser = crate::sim_run::parse_players)]
    players: Option<usize>,
    /// Seed for the deal and the bots (default: a random one, printed at the start).
    #[arg(long, value_parser = crate::sim_run::parse_seed)]
    seed: Option<u64>,
    /// Bot for every other seat, or a comma-separated list, one per bot.
    #[arg(long, help = crate::names::bots_help("Bot for every other seat, or a comma-separated list, one per bot", "Default: heuristic; under the csce322 rules, whose precedence decides every move, every seat plays by the precedence."), value_delimiter = ',', value_parser = crate::names::bot(), hide_possible_values = true)]
    bots: Vec<uno_bots::BotSpec>,
    /// Write the game's record (rules, seed, every action; JSON) to this file when the game ends
    /// or you leave it, for `uno replay` and `uno analyse --seat 1`.
    #[arg(long, value_name = "FILE")]
    record: Option<std::path::PathBuf>,
}

const YOU: Seat = Seat(0);

/// The commands these rules use, with their one-letter shortcuts: `swap` only with the 7-0
/// rule, `uno` only when UNO must be called.
fn help(rules: &uno::Rules) -> String {
    let mut lines = vec![
        "Commands (shortcut in brackets):",
        "  N          play card N of your hand; a wild also takes a colour: '3 red'",
        "  draw  (d)  draw a card",
        "  pass  (p)  keep the card you just drew",
    ];
    if rules.multi_play() == MultiPlay::SameNumber {
        lines.push("             or play no more cards of the number you played");
    }
    if rules.uno_call() == UnoCall::Required {
        lines.push("  uno   (u)  call UNO (before you play your second-to-last card),");
        lines.push("             or catch a player who has one card and did not call");
    }
    lines.extend([
        "  challenge (c) / accept (a)  answer a Wild Draw Four played on you",
        "  red, yellow, green, blue    a colour, when asked for one",
    ]);
    if rules.seven_zero() == SevenZero::On {
        lines.push("  swap N     swap hands with player N (after playing a 7)");
    }
    lines.extend(["  help  (h, ?)  this list", "  quit  (q)  leave the game (asks first)"]);
    lines.join("\n")
}

/// The widest line the table is drawn to, so a card never wraps in an 80-column terminal.
const WIDTH: usize = 80;

/// `items` after `head`, separated by two spaces, broken into lines of at most [`WIDTH`]
/// columns between items only; continuation lines are indented under the first item.
fn wrapped(head: &str, items: &[String]) -> String {
    let indent = " ".repeat(head.chars().count());
    let mut out = head.to_string();
    let mut col = out.chars().count();
    for (i, item) in items.iter().enumerate() {
        let len = item.chars().count();
        if i > 0 && col + 2 + len > WIDTH {
            out.push('\n');
            out.push_str(&indent);
            col = indent.len();
        } else if i > 0 {
            out.push_str("  ");
            col += 2;
        }
        out.push_str(item);
        col += len;
    }
    out
}

/// The seat that plays after `seat` in `direction` (seats are numbered in the direction of play).
fn next_seat(seat: Seat, players: usize, direction: Direction) -> Seat {
    Seat::from_index(uno::next_seat(seat.index(), direction, players, 1)).unwrap_or(seat)
}

fn name(seat: Seat) -> String {
    if seat == YOU {
        "Player 1 (you)".to_string()
    } else {
        format!("Player {}", seat.index() + 1)
    }
}

fn show(out: &mut impl Write, game: &Game) -> std::io::Result<()> {
    let obs = game.observation(Some(YOU));
    writeln!(out)?;
    let declared = if obs.top.is_wild() {
        format!(" (colour in play: {})", obs.color.map_or("not chosen yet", |c| c.name()))
    } else {
        String::new()
    };
    writeln!(out, "Top card: {}{declared}; draw pile: {} cards.", card_words(obs.top), obs.draw_pile_size)?;
    let others: Vec<String> = Seat::all(obs.players)
        .skip(1)
        .map(|s| {
            let uno = if obs.uno_called[s.index()] { ", UNO" } else { "" };
            format!("{} has {}{uno}", name(s), obs.hand_sizes[s.index()])
        })
        .collect();
    writeln!(out, "{}.", others.join("; "))?;
    let direction = obs.direction.to_string().replace('_', "-");
    writeln!(out, "Play goes {direction}; after you: {}.", name(next_seat(YOU, obs.players, obs.direction)))?;
    let hand: Vec<String> = obs
        .hand
        .iter()
        .enumerate()
        .map(|(i, &card)| {
            let playable = obs.legal_actions.iter().any(|a| matches!(a, Action::Play { card: c, .. } if *c == card));
            format!("{}) {}{}", i + 1, card_words(card), if playable { "*" } else { "" })
        })
        .collect();
    writeln!(out, "{}", wrapped("Your hand: ", &hand))?;
    if obs.uno_called[YOU.index()] {
        writeln!(out, "You have called UNO.")?;
    } else if obs.hand.len() == 2 && obs.legal_actions.contains(&Action::CallUno) {
        writeln!(out, "Two cards left: call UNO now ('uno' or 'u'), before you play one of them.")?;
    }
    let hint = match obs.phase {
        Phase::ChooseColor => "The first card is a Wild: name the colour.".to_string(),
        Phase::Challenge { offender } => {
            format!("{} played a Wild Draw Four on you: 'challenge' or 'accept'.", name(offender))
        }
        Phase::DrawnCard => match obs.drawn_card {
            Some(c) => format!("You drew {}: play it by its number, or 'pass'.", card_words(c)),
            None => "Play the card you drew, or 'pass'.".to_string(),
        },
        Phase::ChooseSwap => "Choose whom to swap hands with: 'swap N'.".to_string(),
        Phase::SameNumber => {
            format!("You may play another {} of any colour (starred), or 'pass' to end your turn.", obs.top.face())
        }
        _ if obs.pending_draw > 0 => {
            format!("{} cards are coming to you: stack a draw card or 'draw'.", obs.pending_draw)
        }
        _ => "Play a card (starred ones match) or 'draw'.".to_string(),
    };
    writeln!(out, "{hint}")
}

/// What a line of input asks for, or why it cannot be read.
fn parse(line: &str, game: &Game) -> Result<Option<Action>, String> {
    let words: Vec<String> = line.split_whitespace().map(str::to_ascii_lowercase).collect();
    let hand = game.hand(YOU);
    let colour = |w: &str| w.parse::<Color>().map_err(|_| format!("'{w}' is not a colour (red, yellow, green, blue)"));
    match words.iter().map(String::as_str).collect::<Vec<_>>().as_slice() {
        [] => Err("type a command ('help' lists them)".into()),
        ["help" | "h" | "?"] => Ok(None),
        ["draw" | "d"] => {
            Ok(Some(if matches!(game.phase(), Phase::Challenge { .. }) { Action::Accept } else { Action::Draw }))
        }
        ["pass" | "p" | "keep"] => Ok(Some(Action::Pass)),
        // One word for both, as at a table: a call for yourself when you may make one,
        // else a catch of the player who did not call.
        ["uno" | "u"] => Ok(Some(match game.uno_exposed() {
            Some(v) if v != YOU && !game.view(YOU).can_call_own_uno() => Action::CatchUno { seat: v },
            _ => Action::CallUno,
        })),
        ["challenge" | "c"] => Ok(Some(Action::Challenge)),
        ["accept" | "a"] => Ok(Some(Action::Accept)),
        ["swap", n] => match n.parse::<usize>() {
            Ok(n) if (1..=game.players()).contains(&n) => {
                Ok(game.player_count().seats().nth(n - 1).map(|with| Action::SwapHands { with }))
            }
            _ => Err(format!("'swap {n}': give a player number from 1 to {}", game.players())),
        },
        [n, rest @ ..] if n.chars().all(|c| c.is_ascii_digit()) => {
            let i: usize = n.parse().map_err(|_| format!("'{n}' is not a card number"))?;
            let card = *hand
                .get(i.wrapping_sub(1))
                .ok_or_else(|| format!("you have {} cards: pick a number from 1 to {}", hand.len(), hand.len()))?;
            let color = match (card.is_wild(), rest) {
                (true, [c]) => Some(colour(c)?),
                (true, []) => {
                    return Err(format!("{} needs a colour: type '{i} red' (or yellow, green, blue)", card_words(card)))
                }
                (false, []) => None,
                _ => return Err(format!("only a wild card takes a colour: type '{i}'")),
            };
            Ok(Some(Action::Play { card, color }))
        }
        ["color" | "colour", c] | [c] if game.phase() == Phase::ChooseColor => {
            Ok(Some(Action::DeclareColor { color: colour(c)? }))
        }
        _ => Err(match suggestion(words.first().map_or("", String::as_str)) {
            Some(near) => format!("'{}' is not a command: did you mean '{near}'? ('help' lists them)", line.trim()),
            None => format!("'{}' is not a command ('help' or 'h' lists them)", line.trim()),
        }),
    }
}

/// The words a player types, for "did you mean".
const COMMAND_WORDS: [&str; 13] =
    ["help", "draw", "pass", "keep", "uno", "challenge", "accept", "swap", "quit", "red", "yellow", "green", "blue"];

fn suggestion(word: &str) -> Option<&'static str> {
    nearest(word, &COMMAND_WORDS)
}

/// An action in the words the prompt uses.
fn action_words(action: Action) -> String {
    match action {
        Action::Play { card, color: Some(c) } => format!("play {} and name {}", card_words(card), c.name()),
        Action::Play { card, color: None } => format!("play {}", card_words(card)),
        Action::Draw => "draw".to_string(),
        Action::Accept => "accept the cards".to_string(),
        other => other.to_string(),
    }
}

/// Every seat's points so far.
fn score_line(game: &Game) -> String {
    let scores: Vec<String> =
        game.player_count().seats().zip(game.scores()).map(|(i, s)| format!("{} {s}", name(i))).collect();
    format!("Scores: {}.", scores.join(", "))
}

/// At a round's end: every hand, face up, with the points it gives the winner, then the scores.
fn round_summary(game: &Game) -> String {
    let mut text = String::from("\nThe round is over. The hands:\n");
    let hands = game.round_result().map(|r| r.hands).unwrap_or_default();
    for (seat, hand) in game.player_count().seats().zip(&hands) {
        let points = hand.points;
        let mut cards: Vec<String> = hand.cards.iter().map(|&c| card_words(c)).collect();
        let head = format!("  {}: ", name(seat));
        text += &if cards.is_empty() {
            format!("{head}no cards\n")
        } else {
            // The points wrap with the cards, so the line stays within 80 columns.
            cards.push(format!("({points} points)"));
            format!("{}\n", wrapped(&head, &cards))
        };
    }
    text + &score_line(game) + "\n"
}

/// A generous bound on bot decisions between two of yours, so broken rules cannot hang.
const MAX_BOT_DECISIONS: usize = 100_000;

pub fn run(args: Args) -> anyhow::Result<()> {
    let rules = std::sync::Arc::new(args.rules.load()?);
    let players = player_count(&rules, args.players)?;
    let seed = args.seed.unwrap_or_else(rand::random);
    let bot_seats: Vec<usize> = (1..players).collect();
    // Seed 000's rules leave a player no choice: the human is held to the precedence's move
    // and every bot plays it.
    let forced = rules.precedence_decides();
    let specs = match args.bots.as_slice() {
        _ if forced => vec![uno_bots::BotSpec::Precedence],
        [] => vec![uno_bots::BotSpec::Heuristic],
        list => list.to_vec(),
    };
    let bots = make_bots(&specs, &bot_seats, seed)?;
    let mut record_file =
        args.record.as_deref().map(|path| crate::output::Target::open("--record", path)).transpose()?;
    if record_file.as_ref().is_some_and(crate::output::Target::is_stdout) {
        bail!("--record: standard output shows the game; name a file for the record");
    }
    let record = uno::GameRecord::new(&rules, players, seed);
    let mut out = crate::output::Out::new();
    let stdin = std::io::stdin();
    let mut input = stdin.lock();
    writeln!(
        out,
        "UNO, {} rules: you are Player 1 against {} bot(s) ({}); seed {seed}.\nType 'help' or 'h' for the commands.",
        rules.name(),
        players - 1,
        specs.iter().map(ToString::to_string).collect::<Vec<_>>().join(", ")
    )?;
    if forced {
        let ignored =
            if args.bots.iter().any(|b| *b != uno_bots::BotSpec::Precedence) { " (--bots is ignored)" } else { "" };
        writeln!(out, "Under these rules seed 000's precedence decides every move, yours and every bot's{ignored}.")?;
    }
    let mut events = Vec::new();
    let mut game = Game::new(rules, players, seed)?;
    game.restart_with_events(seed, &mut events);
    let mut table = Table { game, record, bots, out };
    table.tell(&events)?;
    table.play(&mut input)?;
    if let Some(o) = table.game.outcome() {
        let scores: Vec<String> =
            Seat::all(o.scores.len()).zip(&o.scores).map(|(i, s)| format!("{} {s}", name(i))).collect();
        writeln!(table.out, "Final scores: {}.", scores.join(", "))?;
    }
    if let Some(target) = &mut record_file {
        target.write(&(table.record.to_json() + "\n"))?;
    }
    Ok(())
}

/// The game at the terminal: you at seat 0, the bots at the others.
struct Table {
    game: Game,
    record: uno::GameRecord,
    /// The bots of seats 1, 2, …
    bots: Vec<Box<dyn uno_bots::Bot>>,
    out: crate::output::Out,
}

/// What became of one line you typed on your turn.
enum Yours {
    /// The board changed (or you stayed after asking to leave): show it again.
    Moved,
    /// Help, or a refusal: the same turn goes on.
    Again,
    Leave,
}

impl Table {
    fn tell(&mut self, events: &[Event]) -> std::io::Result<()> {
        for e in events {
            writeln!(self.out, "{}", crate::output::wrap(&narrate(&e.redacted_for(Some(YOU)), &name)))?;
        }
        Ok(())
    }

    /// Plays until the game is over or you leave.
    fn play(&mut self, input: &mut dyn BufRead) -> anyhow::Result<()> {
        let mut bot_decisions = 0;
        let mut shown = false;
        while !self.game.is_over() {
            if self.game.phase() == Phase::RoundOver {
                if !self.next_round(input)? {
                    break;
                }
                continue;
            }
            let seat = self.game.current();
            if seat != YOU {
                bot_decisions += 1;
                if bot_decisions > MAX_BOT_DECISIONS {
                    bail!("the bots did not finish within {MAX_BOT_DECISIONS} decisions");
                }
                self.bot_turn(seat)?;
                shown = false;
                continue;
            }
            bot_decisions = 0;
            if !shown {
                show(&mut self.out, &self.game)?;
                shown = true;
            }
            match self.your_turn(input)? {
                Yours::Moved => shown = false,
                Yours::Again => {}
                Yours::Leave => break,
            }
        }
        Ok(())
    }

    /// At a round's end: the hands and scores, then the next round unless you leave (`false`).
    fn next_round(&mut self, input: &mut dyn BufRead) -> anyhow::Result<bool> {
        write!(self.out, "{}", round_summary(&self.game))?;
        write!(self.out, "Press Enter for the next round (q to leave). ")?;
        self.out.flush()?;
        let mut line = String::new();
        if input.read_line(&mut line)? == 0 || matches!(line.trim(), "q" | "quit") {
            writeln!(self.out, "\nYou leave the game. {}", score_line(&self.game))?;
            return Ok(false);
        }
        writeln!(self.out, "\nNext round.")?;
        let events = self.game.apply(YOU, Action::NextRound)?;
        self.record.push(YOU, Action::NextRound);
        self.tell(&events)?;
        Ok(true)
    }

    fn bot_turn(&mut self, seat: Seat) -> anyhow::Result<()> {
        let action = self.bots[seat.index() - 1].choose(&self.game.observation(Some(seat)));
        let events = self
            .game
            .apply(seat, action)
            .map_err(|e| anyhow::anyhow!("{} chose to {}: {e}", name(seat), crate::words::action_words(action)))?;
        self.record.push(seat, action);
        self.tell(&events)?;
        Ok(())
    }

    /// Reads and does one line of yours.
    fn your_turn(&mut self, input: &mut dyn BufRead) -> anyhow::Result<Yours> {
        write!(self.out, "> ")?;
        self.out.flush()?;
        let mut line = String::new();
        if input.read_line(&mut line)? == 0 {
            writeln!(self.out, "\nEnd of input: leaving the game.")?;
            return Ok(Yours::Leave);
        }
        if matches!(line.trim().to_ascii_lowercase().as_str(), "quit" | "q" | "exit") {
            write!(self.out, "Leave the game? It is not saved. Type y to leave: ")?;
            self.out.flush()?;
            line.clear();
            input.read_line(&mut line)?;
            if matches!(line.trim().to_ascii_lowercase().as_str(), "y" | "yes") {
                writeln!(self.out, "You leave the game. {}", score_line(&self.game))?;
                return Ok(Yours::Leave);
            }
            writeln!(self.out, "The game goes on.")?;
            return Ok(Yours::Moved);
        }
        let parsed = parse(&line, &self.game);
        match parsed {
            Ok(None) => writeln!(self.out, "{}", help(self.game.rules()))?,
            Ok(Some(action)) => match self.game.apply(YOU, action) {
                Ok(events) => {
                    self.record.push(YOU, action);
                    self.tell(&events)?;
                    return Ok(Yours::Moved);
                }
                Err(_) if self.game.precedence_move().is_some() => {
                    // The engine holds everyone to the precedence's move; say which it is.
                    let must = self.game.precedence_move().map_or_else(String::new, action_words);
                    let text = format!(
                        "Not allowed: under seed 000's rules precedence decides every move; here you must {must}."
                    );
                    writeln!(self.out, "{}", crate::output::wrap(&text))?;
                }
                Err(e) => {
                    let text = format!("Not allowed: {e}. Try again ('help' lists the commands).");
                    writeln!(self.out, "{}", crate::output::wrap(&text))?;
                }
            },
            Err(msg) => writeln!(self.out, "{}", crate::output::wrap(&msg))?,
        }
        Ok(Yours::Again)
    }
}
