//! House rules: a few toggles a table's creator picks over a preset or a rules file (the server's
//! create form sends them). They change the configuration the rules are built from, so every
//! check [`Rules::new`] makes (bounds, consistency) applies to the result as to any rules file.

use serde::{Deserialize, Serialize};

use crate::rules::WildDrawFourRule;
use crate::rules::{
    DrawRule, ForcedPlay, JumpIn, MultiPlay, Rules, RulesConfig, RulesError, SevenZero, Stacking, UnoCall,
};

/// House-rule toggles; each one left out keeps what the base rules say.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(optional_fields))]
#[serde(deny_unknown_fields)]
pub struct HouseRules {
    /// Draw Two / Wild Draw Four stacking (`play.stacking`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stacking: Option<Stacking>,
    /// Draw one card or until playable (`play.draw`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub draw: Option<DrawRule>,
    /// Whether a playable card must be played (`play.forced_play`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub forced_play: Option<ForcedPlay>,
    /// Jump-in with an identical card out of turn (`play.jump_in`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub jump_in: Option<JumpIn>,
    /// 7 swaps hands, 0 rotates them (`play.seven_zero`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seven_zero: Option<SevenZero>,
    /// Several cards of the same number in one turn (`play.multi_play`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub multi_play: Option<MultiPlay>,
    /// When a Wild Draw Four may be played and challenged (`play.wild_draw_four`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub wild_draw_four: Option<WildDrawFourRule>,
    /// Whether UNO must be called, and its penalties (`uno.call`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub uno_call: Option<UnoCall>,
    /// Points to win a match; 0 makes one round the whole game.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub match_target: Option<u32>,
}

impl HouseRules {
    /// Writes the chosen toggles into `config`.
    pub fn apply(&self, config: &mut RulesConfig) {
        let p = &mut config.play;
        if let Some(v) = self.stacking {
            p.stacking = v;
        }
        if let Some(v) = self.draw {
            p.draw = v;
        }
        if let Some(v) = self.forced_play {
            p.forced_play = v;
        }
        if let Some(v) = self.jump_in {
            p.jump_in = v;
        }
        if let Some(v) = self.seven_zero {
            p.seven_zero = v;
        }
        if let Some(v) = self.multi_play {
            p.multi_play = v;
        }
        if let Some(v) = self.wild_draw_four {
            p.wild_draw_four = v;
        }
        if let Some(v) = self.uno_call {
            config.uno.call = v;
        }
        if let Some(t) = self.match_target {
            config.scoring.target = (t > 0).then_some(t);
        }
    }

    /// The rules `base` makes with these toggles over it, checked as any rules are.
    ///
    /// # Errors
    ///
    /// The [`RulesError`] of [`Rules::new`] when the result is not a valid rule set (a match
    /// target past its bound, a combination the engine refuses).
    pub fn build(&self, mut base: RulesConfig) -> Result<Rules, RulesError> {
        self.apply(&mut base);
        Rules::new(base)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn house_rules_apply_over_the_preset() {
        let base = crate::rules::preset_config("official").expect("preset");
        let house = HouseRules {
            stacking: Some(Stacking::Both),
            multi_play: Some(MultiPlay::SameNumber),
            match_target: Some(0),
            ..Default::default()
        };
        let r = house.build(base.clone()).expect("valid");
        assert_eq!(r.stacking(), Stacking::Both);
        assert_eq!(r.multi_play(), MultiPlay::SameNumber);
        assert_eq!(r.target(), None);
        // Nothing chosen: the preset as it is.
        assert_eq!(HouseRules::default().build(base.clone()).expect("valid").config(), &base);
    }

    #[test]
    fn a_house_target_is_checked_like_a_rules_file() {
        let base = crate::rules::preset_config("official").expect("preset");
        let house = HouseRules { match_target: Some(u32::MAX), ..Default::default() };
        assert!(house.build(base).is_err(), "an unbounded target must be refused");
    }
}
