//! `tabletop uno watch`: bots play one game and every event is printed in words, or, with
//! `--format cs205`, seed 004's status block after the set-up and after every turn.

use std::io::Write;
use std::sync::Arc;

use anyhow::bail;
use uno::courses::cs205;
use uno::{Event, Game, Phase, Seat};
use uno_bots::{Bot, BotSpec};

use crate::bots_arg::make_bots;
use crate::rules_arg::RulesArgs;
use crate::seats_arg::player_count;
use crate::words::{action_words, card_words, narrate};

#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// Every event in words.
    Events,
    /// Seed 004's status blocks (piles top first, `Player 1` … `Player N`), then the winner.
    Cs205,
}

#[derive(clap::Args)]
pub struct Args {
    #[command(flatten)]
    rules: RulesArgs,
    /// Number of players (default: 4, or the nearest count the rules allow).
    #[arg(long, value_parser = crate::sim_run::parse_players)]
    players: Option<usize>,
    /// Seed for the deal and the bots: the same seed replays the same game.
    #[arg(long, default_value_t = 1, value_parser = crate::sim_run::parse_seed)]
    seed: u64,
    /// Bot for every seat, or a comma-separated list, one per seat.
    #[arg(long, help = crate::names::bots_help("Bot for every seat, or a comma-separated list, one per seat", ""), default_value = "random", value_delimiter = ',', value_parser = crate::names::bot(), hide_possible_values = true)]
    bots: Vec<BotSpec>,
    /// How to print the game.
    #[arg(long, value_enum, default_value_t = Format::Events)]
    format: Format,
    /// Print every event as one line of JSON instead of words, in the engine's event format
    /// (`{"type":"card_played","seat":1,…}`; `"seat":0` is Player 1).
    #[arg(long, conflicts_with = "format")]
    json: bool,
    /// Also write the game's record (rules, seed, every action; JSON) to this file, for
    /// `uno replay` and `uno analyse`; `-`: the record alone on standard output, instead of
    /// the game.
    #[arg(long, value_name = "FILE")]
    record: Option<std::path::PathBuf>,
}

/// A generous bound on decisions, so a rules file that never ends cannot hang the command.
const MAX_DECISIONS: usize = 1_000_000;

pub fn run(args: Args) -> anyhow::Result<()> {
    let rules = Arc::new(args.rules.load()?);
    let players = player_count(&rules, args.players)?;
    let seats: Vec<usize> = (0..players).collect();
    let mut bots = make_bots(&args.bots, &seats, args.seed)?;
    if args.format == Format::Cs205 {
        if let Some(&wild) = rules.deck().iter().find(|c| c.is_wild()) {
            bail!("--format cs205 cannot print {} (seed 004's deck has no wild card)", card_words(wild));
        }
    }
    // Opened (so checked) before the game is played.
    let mut record_file =
        args.record.as_deref().map(|path| crate::output::Target::open("--record", path)).transpose()?;
    let mut record = uno::GameRecord::new(&rules, players, args.seed);
    // With the record on standard output, the game itself is not printed.
    let quiet = record_file.as_ref().is_some_and(crate::output::Target::is_stdout);
    let out: Box<dyn Write> =
        if quiet { Box::new(std::io::sink()) } else { Box::new(std::io::BufWriter::new(crate::output::Out::new())) };
    let mut printer = Printer { out, format: args.format, json: args.json };
    let mut events = Vec::new();
    let mut game = Game::new(rules, players, args.seed)?;
    game.restart_with_events(args.seed, &mut events);
    printer.start(&game, &events)?;
    let mut decisions = 0;
    while !game.is_over() {
        if args.format == Format::Cs205 && game.is_round_over() {
            break;
        }
        decisions += 1;
        if decisions > MAX_DECISIONS {
            bail!("the game did not end within {MAX_DECISIONS} decisions");
        }
        let seat = if game.phase() == Phase::RoundOver { Seat(0) } else { game.current() };
        let action = if game.phase() == Phase::RoundOver {
            uno::Action::NextRound
        } else {
            bots[seat.index()].choose(&game.observation(Some(seat)))
        };
        let turns = game.turns();
        let events = game
            .apply(seat, action)
            .map_err(|e| anyhow::anyhow!("the bot at {} chose to {}: {e}", watch_name(seat), action_words(action)))?;
        record.push(seat, action);
        printer.after(&game, turns, &events)?;
    }
    printer.finish(&game)?;
    if let Some(target) = &mut record_file {
        target.write(&(record.to_json() + "\n"))?;
    }
    Ok(())
}

/// A seat as `watch` names it (seed 004's player names).
fn watch_name(seat: Seat) -> String {
    cs205::player_name(seat.index())
}

/// Where `watch` prints the game, in the format asked for.
struct Printer {
    out: Box<dyn Write>,
    format: Format,
    /// Events as JSON lines rather than sentences.
    json: bool,
}

impl Printer {
    fn events(&mut self, events: &[Event]) -> anyhow::Result<()> {
        for e in events {
            if self.json {
                // Serialized first, so a failed write stays an io::Error the caller recognises.
                writeln!(self.out, "{}", serde_json::to_string(e)?)?;
            } else {
                writeln!(self.out, "{}", narrate(e, &watch_name))?;
            }
        }
        Ok(())
    }

    /// The deal.
    fn start(&mut self, game: &Game, events: &[Event]) -> anyhow::Result<()> {
        match self.format {
            Format::Events => self.events(events),
            Format::Cs205 => Ok(self.out.write_all(cs205::Status::of(game).render()?.as_bytes())?),
        }
    }

    /// What a decision did; `turns` is the game's turn count before it.
    fn after(&mut self, game: &Game, turns: u32, events: &[Event]) -> anyhow::Result<()> {
        match self.format {
            Format::Events => self.events(events),
            Format::Cs205 => {
                if game.turns() != turns || game.is_round_over() {
                    writeln!(self.out)?;
                    self.out.write_all(cs205::Status::of(game).render()?.as_bytes())?;
                }
                Ok(())
            }
        }
    }

    /// The end: seed 004's winner line, and everything written out.
    fn finish(&mut self, game: &Game) -> anyhow::Result<()> {
        if self.format == Format::Cs205 {
            writeln!(self.out, "{}", cs205::winner_line(game))?;
        }
        Ok(self.out.flush()?)
    }
}
