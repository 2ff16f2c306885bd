//! `tabletop uno play`: you against bots in the terminal.
//!
//! You are Player 1. Before each of your decisions the table is shown (the top card and the
//! colour in play, every other hand's size, your hand numbered, playable cards starred);
//! everything that happens is narrated as it happens, your own draws with their cards. Bad
//! input is explained and asked again; end of input ends the game cleanly.

use std::io::{BufRead, Write};

use anyhow::bail;
use uno::{Action, Color, Event, Game, Phase, Seat};

use crate::rules_arg::RulesArgs;
use crate::uno_watch::{card_words, make_bots, narrate, player_count};

#[derive(clap::Args)]
pub struct Args {
    #[command(flatten)]
    rules: RulesArgs,
    /// Number of players, you included (default: 4, or the nearest count the rules allow).
    #[arg(long)]
    players: Option<usize>,
    /// Seed for the deal and the bots (default: a random one, printed at the start).
    #[arg(long)]
    seed: Option<u64>,
    /// Bot for every other seat, or a comma-separated list, one per bot (random, uniform, first, heuristic, precedence,
    /// ismcts, ismcts:ITERATIONS, ismcts:ITERATIONS:heuristic).
    #[arg(long, default_value = "heuristic")]
    bots: String,
}

const YOU: Seat = Seat(0);

const HELP: &str = "Commands: a card's number to play it (a wild also takes a colour: '3 red'), \
'draw', 'pass' (keep the card you drew), 'uno' (call UNO, or catch a player who did not), \
'challenge' or 'accept' (a Wild Draw Four played on you), a colour name when asked for one, \
'swap N' (7-0 rule), 'help', 'quit'.";

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
    let declared = if obs.top.is_wild() { format!(" (colour in play: {})", obs.color.name()) } else { String::new() };
    writeln!(out, "Top card: {}{declared}; draw pile: {} cards.", card_words(obs.top), obs.draw_pile_size)?;
    let others: Vec<String> = (1..obs.players)
        .map(|s| {
            let uno = if obs.uno_called[s] { ", UNO" } else { "" };
            format!("{} has {}{uno}", name(Seat(s as u8)), obs.hand_sizes[s])
        })
        .collect();
    writeln!(out, "{}.", others.join("; "))?;
    let hand: Vec<String> = obs
        .hand
        .iter()
        .enumerate()
        .map(|(i, &card)| {
            let playable = obs.legal_actions.iter().any(|a| matches!(a, Action::Play { card: c, .. } if *c == card));
            format!("{}) {}{}", i + 1, card_words(card), if playable { "*" } else { "" })
        })
        .collect();
    writeln!(out, "Your hand: {}", hand.join("  "))?;
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
            Ok(n) if (1..=game.players()).contains(&n) => Ok(Some(Action::SwapHands { with: Seat((n - 1) as u8) })),
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
        _ => Err(format!("'{}' is not a command. {HELP}", line.trim())),
    }
}

/// A generous bound on bot decisions between two of yours, so broken rules cannot hang.
const MAX_BOT_DECISIONS: usize = 100_000;

pub fn run(args: Args) -> anyhow::Result<()> {
    let rules = std::sync::Arc::new(args.rules.load()?);
    let players = player_count(&rules, args.players)?;
    let seed = args.seed.unwrap_or_else(rand::random);
    let bot_seats: Vec<usize> = (1..players).collect();
    let mut bots = make_bots(&args.bots, &bot_seats, seed, &rules)?;
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    let stdin = std::io::stdin();
    let mut input = stdin.lock();
    writeln!(
        out,
        "UNO, {} rules: you are Player 1 against {} bot(s) ({}); seed {seed}. Type 'help' for commands.",
        rules.name(),
        players - 1,
        args.bots
    )?;
    let mut events = Vec::new();
    let mut game = Game::new_with_events(rules, players, seed, &mut events)?;
    let tell = |out: &mut std::io::StdoutLock<'_>, events: &[Event]| -> std::io::Result<()> {
        for e in events {
            writeln!(out, "{}", narrate(&e.redacted_for(Some(YOU)), &name))?;
        }
        Ok(())
    };
    tell(&mut out, &events)?;
    let mut bot_decisions = 0;
    let mut shown = false;
    while !game.is_over() {
        if game.phase() == Phase::RoundOver {
            writeln!(out, "\nNext round.")?;
            let events = game.apply(YOU, Action::NextRound)?;
            tell(&mut out, &events)?;
            continue;
        }
        let seat = game.current();
        if seat != YOU {
            bot_decisions += 1;
            if bot_decisions > MAX_BOT_DECISIONS {
                bail!("the bots did not finish within {MAX_BOT_DECISIONS} decisions");
            }
            let action = bots[seat.index() - 1].choose(&game.observation(Some(seat)));
            let events = game.apply(seat, action).map_err(|e| anyhow::anyhow!("{} chose {action}: {e}", name(seat)))?;
            tell(&mut out, &events)?;
            shown = false;
            continue;
        }
        bot_decisions = 0;
        if !shown {
            show(&mut out, &game)?;
            shown = true;
        }
        write!(out, "> ")?;
        out.flush()?;
        let mut line = String::new();
        if input.read_line(&mut line)? == 0 {
            writeln!(out, "\nEnd of input: leaving the game.")?;
            return Ok(());
        }
        if matches!(line.trim().to_ascii_lowercase().as_str(), "quit" | "q" | "exit") {
            writeln!(out, "You leave the game.")?;
            return Ok(());
        }
        match parse(&line, &game) {
            Ok(None) => writeln!(out, "{HELP}")?,
            Ok(Some(action)) => match game.apply(YOU, action) {
                Ok(events) => {
                    tell(&mut out, &events)?;
                    shown = false;
                }
                Err(e) => writeln!(out, "Not allowed: {e}. Try again ('help' lists the commands).")?,
            },
            Err(msg) => writeln!(out, "{msg}")?,
        }
    }
    if let Some(o) = game.outcome() {
        let scores: Vec<String> =
            o.scores.iter().enumerate().map(|(i, s)| format!("{} {s}", name(Seat(i as u8)))).collect();
        writeln!(out, "Final scores: {}.", scores.join(", "))?;
    }
    Ok(())
}
