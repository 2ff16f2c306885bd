#[derive(clap::Subcommand)]
pub enum DuelCommand {
    /// Play Duel in the terminal.
    Play,
}

pub fn run(_cmd: DuelCommand) -> anyhow::Result<()> {
    anyhow::bail!("this command is not available yet")
}
