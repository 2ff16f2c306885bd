//! `tabletop`: UNO and Duel from the command line, and the web server.
//!
//! Each subcommand lives in its own module; this file only parses and dispatches.

mod bots_arg;
mod duel_cmd;
mod names;
mod output;
mod record_file;
mod rules_arg;
mod seats_arg;
mod serve;
mod sim_run;
mod uno_analyse;
mod uno_match;
mod uno_play;
mod uno_replay;
mod uno_rules;
mod uno_scenario;
mod uno_sim;
mod uno_watch;
mod words;

use std::process::ExitCode;

use clap::{Parser, Subcommand};

/// The server allocates a little per message on every socket (frames, events, JSON); mimalloc's
/// per-thread free lists cost less there than the system allocator's locks and consolidation.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

#[derive(Parser)]
// Help is wrapped to the terminal (or COLUMNS), but never wider than 100 columns: prose much
// wider than that is hard to read.
#[command(
    name = "tabletop",
    version,
    about = "UNO (every rule set as data) and Duel: play, simulate, serve",
    max_term_width = 100
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Start the web server (UNO tables and the Duel page).
    Serve(serve::Args),
    /// UNO: play, sim, match, scenario, rules, watch, replay, analyse.
    #[command(subcommand)]
    Uno(UnoCommand),
    /// Duel, the grid game: play in the terminal or simulate bot against bot.
    #[command(subcommand)]
    Duel(duel_cmd::DuelCommand),
    /// Print a completion script for a shell: bash, zsh, fish, elvish or powershell.
    ///
    /// For example `tabletop completions bash > ~/.local/share/bash-completion/completions/tabletop`.
    Completions { shell: clap_complete::Shell },
}

#[derive(Subcommand)]
enum UnoCommand {
    /// Play UNO in the terminal against bots.
    Play(uno_play::Args),
    /// Simulate many bot games and report wins, points and speed.
    Sim(uno_sim::Args),
    /// Compare bots on duplicate deals: every seating on the same cards, intervals over deals.
    Match(uno_match::Args),
    /// Run one of seed 000's four operations on `.uno` files.
    Scenario(uno_scenario::Args),
    /// List the rule presets, or print one as TOML.
    Rules(uno_rules::Args),
    /// Watch bots play one game, printing every event.
    Watch(uno_watch::Args),
    /// Step through a recorded game, from one seat's point of view or from above.
    Replay(uno_replay::Args),
    /// Value every decision of one seat in a recorded game: win chances, mistakes, luck and skill.
    Analyse(uno_analyse::Args),
}

/// The script is built in memory first: the generator cannot report a failed write.
fn completions(shell: clap_complete::Shell) -> anyhow::Result<()> {
    let mut script = Vec::new();
    clap_complete::generate(shell, &mut <Cli as clap::CommandFactory>::command(), "tabletop", &mut script);
    output::print(&String::from_utf8_lossy(&script))?;
    Ok(())
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Serve(a) => serve::run(a),
        Command::Uno(UnoCommand::Play(a)) => uno_play::run(a),
        Command::Uno(UnoCommand::Sim(a)) => uno_sim::run(a),
        Command::Uno(UnoCommand::Match(a)) => uno_match::run(a),
        Command::Uno(UnoCommand::Scenario(a)) => uno_scenario::run(a),
        Command::Uno(UnoCommand::Rules(a)) => uno_rules::run(a),
        Command::Uno(UnoCommand::Watch(a)) => uno_watch::run(a),
        Command::Uno(UnoCommand::Replay(a)) => uno_replay::run(a),
        Command::Uno(UnoCommand::Analyse(a)) => uno_analyse::run(a),
        Command::Duel(c) => duel_cmd::run(c),
        Command::Completions { shell } => completions(shell),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => match output::exit_code(&e) {
            None => ExitCode::SUCCESS,
            Some(code) => {
                output::report(&e);
                ExitCode::from(code)
            }
        },
    }
}
