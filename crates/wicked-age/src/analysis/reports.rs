//! In A Wicked Age odds as reports: the arithmetic is the engine's own exact-odds module
//! ([`crate::odds`]); this module reads dice pools written as text and lays the results out.
//!
//! Pool syntax: dice joined by `+`. `dN` is a form die (High/Low, WA-11); `adv` is the
//! Advantage d6, `owe` an Owe d6, and `b8` or `b10` a strength die, all added to P.
//! Examples: `d12+d8`, `d8+d4+adv`, `d6+d6+b8` (a strength d8).
//!
//! Only rolls the rules can make are read ([`parse_roll`]): one or two form dice (a PC rolls two
//! forms, WA-3; an NPC its form's pair, or the one die left of it, WA-7, WA-8), every die one of
//! the chain d12 … d4 (WA-1), and at most one each of the Advantage die (WA-20), an Owe d6
//! (WA-18) and a strength die, a d8 or a d10 (WA-9, WA-10). Two rolls that meet cannot both hold
//! the Advantage die (WA-20), and a whole conflict starts with it unheld (WA-19).

use crate::odds::{self, Pool};
use crate::roll::Outcome;
use serde::Serialize;

use clash_analysis::exact::Probability;

/// The die chain (WA-1): the only dice a form can roll.
pub const CHAIN: [u32; 5] = [12, 10, 8, 6, 4];
/// Strength dice: a d8, or a d10 when potent (WA-9).
pub const STRENGTH_DICE: [u32; 2] = [8, 10];

/// A roll could not be read, or is not one the rules can make.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PoolError {
    #[error("{0:?} is not a die: write dN (form die), adv, owe, b8 or b10 (strength die)")]
    BadToken(String),
    #[error("a d{0} is not a die of the chain d12, d10, d8, d6, d4 (WA-1)")]
    NotInChain(u32),
    #[error(
        "a roll has one or two form dice (WA-3: a PC rolls two forms; WA-7, WA-8: an NPC rolls its form's dice), not {0}"
    )]
    FormDice(usize),
    #[error(
        "b{0} is not a bonus die: bonus dice are the Advantage d6 (adv), an Owe d6 (owe) and a strength d8 or d10 (b8, b10) (WA-9, WA-11)"
    )]
    NotABonusDie(u32),
    #[error("a roll holds {0} at most once ({1})")]
    Repeated(&'static str, &'static str),
    #[error("both rolls hold the Advantage die, but one participant at most holds it (WA-20)")]
    AdvantageTwice,
    #[error(
        "a whole conflict starts with the Advantage die unheld and passes it by answers (WA-19, WA-20): leave adv out"
    )]
    AdvantageAtStart,
    #[error("a conflict has rounds 1 to 3 (WA-21), not {0}")]
    Round(u8),
    #[error("{0}")]
    Odds(String),
}

/// A roll's dice, as the rules allow them.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Roll {
    /// Form dice by sides, one or two of the chain.
    pub form: Vec<u32>,
    /// The Advantage d6 (WA-20).
    pub advantage: bool,
    /// An Owe d6 (WA-18).
    pub owe: bool,
    /// A strength die: 8 or 10 sides (WA-9).
    pub strength: Option<u32>,
}

impl Roll {
    /// Form dice only (checked like a parsed roll).
    pub fn of_forms(form: &[u32]) -> Result<Roll, PoolError> {
        let roll = Roll {
            form: form.to_vec(),
            advantage: false,
            owe: false,
            strength: None,
        };
        roll.check()?;
        Ok(roll)
    }

    fn check(&self) -> Result<(), PoolError> {
        if !(1..=2).contains(&self.form.len()) {
            return Err(PoolError::FormDice(self.form.len()));
        }
        if let Some(bad) = self.form.iter().find(|d| !CHAIN.contains(d)) {
            return Err(PoolError::NotInChain(*bad));
        }
        Ok(())
    }

    /// The engine's pool: the form dice, and every bonus die added to P (WA-11).
    pub fn pool(&self) -> Pool {
        let bonus = [
            self.advantage.then_some(6),
            self.owe.then_some(6),
            self.strength,
        ];
        Pool::new(self.form.iter().copied()).with_bonus(bonus.into_iter().flatten())
    }

    /// The roll written back in the syntax above.
    pub fn text(&self) -> String {
        let form = self.form.iter().map(|s| format!("d{s}"));
        let bonus = [
            self.advantage.then(|| "adv".to_string()),
            self.owe.then(|| "owe".to_string()),
            self.strength.map(|s| format!("b{s}")),
        ];
        form.chain(bonus.into_iter().flatten())
            .collect::<Vec<_>>()
            .join("+")
    }
}

/// Read `d12+d8+adv` as a roll, refusing dice the rules never roll.
pub fn parse_roll(text: &str) -> Result<Roll, PoolError> {
    let mut roll = Roll {
        form: Vec::new(),
        advantage: false,
        owe: false,
        strength: None,
    };
    for token in text.split('+').map(|t| t.trim().to_ascii_lowercase()) {
        let sides = |rest: &str| rest.parse::<u32>().ok().filter(|s| *s > 0);
        let once = |held: &mut bool, what, rule| {
            if std::mem::replace(held, true) {
                Err(PoolError::Repeated(what, rule))
            } else {
                Ok(())
            }
        };
        match token.as_str() {
            "adv" | "advantage" => once(&mut roll.advantage, "the Advantage die", "WA-20")?,
            "owe" => once(&mut roll.owe, "an Owe d6", "WA-18")?,
            t if t.starts_with('d') => roll
                .form
                .push(sides(&t[1..]).ok_or_else(|| PoolError::BadToken(token.clone()))?),
            t if t.starts_with('b') => {
                let die = sides(&t[1..]).ok_or_else(|| PoolError::BadToken(token.clone()))?;
                if !STRENGTH_DICE.contains(&die) {
                    return Err(PoolError::NotABonusDie(die));
                }
                if roll.strength.replace(die).is_some() {
                    return Err(PoolError::Repeated("a strength die", "WA-10"));
                }
            }
            _ => return Err(PoolError::BadToken(token)),
        }
    }
    roll.check()?;
    Ok(roll)
}

/// Two rolls that meet: at most one holds the Advantage die (WA-20).
pub fn check_pair(a: &Roll, b: &Roll) -> Result<(), PoolError> {
    if a.advantage && b.advantage {
        Err(PoolError::AdvantageTwice)
    } else {
        Ok(())
    }
}

/// One band of an exchange with its probability.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Band {
    pub outcome: Outcome,
    pub text: &'static str,
    pub probability: Probability,
}

/// Which roll the challenge is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ChallengeKind {
    /// A fresh, independent roll (a later turn of the round).
    Fresh,
    /// The challenger's standing initiative roll, given it beat the answerer's (P9).
    Opening,
}

/// One exchange (spec §10 P1–P7, P9).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ExchangeReport {
    pub answer: String,
    pub challenge: String,
    pub round: u8,
    pub challenge_kind: ChallengeKind,
    pub bands: Vec<Band>,
    /// Answer at least the challenge (first two bands; rounds 1–2 only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub answer_at_least_challenge: Option<Probability>,
}

/// One exchange between two pools in `round` (1–2: four bands; 3: two outcomes).
pub fn exchange(
    answer: &Roll,
    challenge: &Roll,
    round: u8,
    kind: ChallengeKind,
) -> Result<ExchangeReport, PoolError> {
    if !(1..=3).contains(&round) {
        return Err(PoolError::Round(round));
    }
    check_pair(answer, challenge)?;
    let report_text = (answer.text(), challenge.text());
    let (answer, challenge) = (&answer.pool(), &challenge.pool());
    let err = |e: odds::OddsError| PoolError::Odds(e.to_string());
    let band = |outcome: Outcome, p: &odds::Fraction| Band {
        outcome,
        text: outcome.describe(),
        probability: p.into(),
    };
    let (bands, at_least) = if round >= 3 {
        let f = match kind {
            ChallengeKind::Fresh => odds::final_exchange(answer, challenge).map_err(err)?,
            ChallengeKind::Opening => {
                odds::opening_final_exchange(challenge, answer).map_err(err)?
            }
        };
        let bands = vec![
            band(Outcome::ChallengerKnockedOut, &f.challenger_knocked_out),
            band(Outcome::AnswererKnockedOut, &f.answerer_knocked_out),
        ];
        (bands, None)
    } else {
        let e = match kind {
            ChallengeKind::Fresh => odds::exchange(answer, challenge).map_err(err)?,
            ChallengeKind::Opening => odds::opening_exchange(challenge, answer).map_err(err)?,
        };
        let bands = Outcome::ALL.iter().map(|o| band(*o, e.of(*o))).collect();
        (bands, Some((&e.answer_at_least_challenge()).into()))
    };
    Ok(ExchangeReport {
        answer: report_text.0,
        challenge: report_text.1,
        round,
        challenge_kind: kind,
        bands,
        answer_at_least_challenge: at_least,
    })
}

/// A whole two-party conflict (P10) with the initiative odds of its first round (P8).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ConflictReport {
    pub x: String,
    pub y: String,
    pub x_wins: Probability,
    pub y_wins: Probability,
    pub initiative_x_higher: Probability,
    pub initiative_tie: Probability,
    pub initiative_y_higher: Probability,
    pub x_first_after_rerolls: Probability,
}

/// X against Y over a whole conflict with fixed dice (the engine's P10 model).
pub fn conflict(x: &Roll, y: &Roll) -> Result<ConflictReport, PoolError> {
    if x.advantage || y.advantage {
        return Err(PoolError::AdvantageAtStart);
    }
    let (texts, x, y) = ((x.text(), y.text()), &x.pool(), &y.pool());
    let err = |e: odds::OddsError| PoolError::Odds(e.to_string());
    let c = odds::conflict(x, y).map_err(err)?;
    let i = odds::initiative(x, y).map_err(err)?;
    Ok(ConflictReport {
        x: texts.0,
        y: texts.1,
        x_wins: (&c.x_wins).into(),
        y_wins: (&c.y_wins).into(),
        initiative_x_higher: (&i.x_higher).into(),
        initiative_tie: (&i.tie).into(),
        initiative_y_higher: (&i.y_higher).into(),
        x_first_after_rerolls: (&i.x_first).into(),
    })
}

/// The engine's exact fractions, reported like every other probability.
impl From<&odds::Fraction> for Probability {
    fn from(f: &odds::Fraction) -> Self {
        clash_analysis::exact::parse_fraction(&f.to_string()).map_or(
            Probability {
                fraction: f.to_string(),
                decimal: f.to_f64(),
            },
            |q| Probability::of(&q),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use clash_analysis::exact::is_distribution;

    fn pool(t: &str) -> Roll {
        parse_roll(t).unwrap()
    }

    fn fractions(r: &ExchangeReport) -> Vec<String> {
        r.bands
            .iter()
            .map(|b| b.probability.fraction.clone())
            .collect()
    }

    #[test]
    fn spec_p1_p2_p3_through_the_report() {
        let r = exchange(&pool("d10+d6"), &pool("d12+d8"), 1, ChallengeKind::Fresh).unwrap();
        assert_eq!(fractions(&r), ["63/640", "87/320", "761/1920", "7/30"]); // WA §10 P1
        assert_eq!(r.answer_at_least_challenge.unwrap().fraction, "237/640"); // P2
        let r = exchange(&pool("d10+d6"), &pool("d12+d8"), 3, ChallengeKind::Fresh).unwrap();
        assert_eq!(fractions(&r), ["237/640", "403/640"]); // P3
    }

    #[test]
    fn spec_p5_p6_p7_with_bonus_dice() {
        let r = exchange(&pool("d8+d4+adv"), &pool("d12+d8"), 2, ChallengeKind::Fresh).unwrap();
        assert_eq!(
            fractions(&r),
            ["409/2304", "3647/9216", "17/48", "223/3072"]
        ); // P5
        let r = exchange(&pool("d10+d8"), &pool("d6+d6+b8"), 1, ChallengeKind::Fresh).unwrap();
        assert_eq!(
            fractions(&r),
            ["349/11520", "5849/23040", "10781/23040", "119/480"]
        ); // P6
        let r = exchange(&pool("d6+d6"), &pool("d6+d6"), 1, ChallengeKind::Fresh).unwrap();
        assert_eq!(fractions(&r), ["19/144", "85/216", "37/108", "19/144"]); // P7
    }

    #[test]
    fn spec_p8_p9_p10() {
        let r = exchange(&pool("d10+d6"), &pool("d12+d8"), 1, ChallengeKind::Opening).unwrap();
        assert_eq!(
            fractions(&r),
            ["3749/217620", "3674/18135", "51541/108810", "66701/217620"]
        ); // P9
        let c = conflict(&pool("d12+d10"), &pool("d10+d6")).unwrap();
        assert_eq!(c.initiative_x_higher.fraction, "1657/2400"); // P8
        assert_eq!(c.initiative_tie.fraction, "19/1200");
        assert_eq!(c.x_first_after_rerolls.fraction, "1657/2362");
        let c = conflict(&pool("d12+d8"), &pool("d10+d6")).unwrap();
        assert_eq!(
            c.x_wins.fraction,
            "965310719342751050011045507/1319641340826181469995008000"
        ); // P10
        let same = conflict(&pool("d8+d6"), &pool("d8+d6")).unwrap();
        assert_eq!(same.x_wins.fraction, "1/2");
    }

    #[test]
    fn bands_are_exhaustive() {
        for (a, c) in [
            ("d4", "d12+d10"),
            ("d6+adv", "d10+d4+owe"),
            ("d12+d10+b10", "d4"),
        ] {
            for round in [1, 3] {
                let r = exchange(&pool(a), &pool(c), round, ChallengeKind::Fresh).unwrap();
                let exact: Vec<_> = r
                    .bands
                    .iter()
                    .map(|b| b.probability.exact().unwrap())
                    .collect();
                assert!(is_distribution(&exact), "{a} vs {c} round {round}");
            }
        }
    }

    fn die() -> impl proptest::strategy::Strategy<Value = u32> {
        proptest::sample::select(vec![4u32, 6, 8, 10, 12])
    }

    proptest::proptest! {
        #[test]
        fn random_pools_give_exhaustive_bands(
            a in proptest::collection::vec(die(), 1..3), advantage: bool, owe: bool,
            strength in proptest::option::of(proptest::sample::select(STRENGTH_DICE.to_vec())),
            c in proptest::collection::vec(die(), 1..3), round in 1u8..4,
        ) {
            let answer = Roll { form: a, advantage, owe, strength };
            let challenge = Roll::of_forms(&c).unwrap();
            let r = exchange(&answer, &challenge, round, ChallengeKind::Fresh).unwrap();
            let exact: Vec<_> = r.bands.iter().map(|b| b.probability.exact().unwrap()).collect();
            proptest::prop_assert!(is_distribution(&exact));
        }
    }

    #[test]
    fn malformed_pools_are_refused() {
        for bad in ["", "x6", "d12+", "d12+bz", "b8"] {
            assert!(parse_roll(bad).is_err(), "{bad}");
        }
        assert_eq!(pool("D12+d8+adv").text(), "d12+d8+adv");
        assert_eq!(
            pool("d6+owe+b10").pool(),
            Pool::new([6]).with_bonus([6, 10])
        );
    }

    #[test]
    fn wa_1_only_dice_of_the_chain_are_rolled() {
        for bad in ["d3", "d100", "d12+d20", "d0"] {
            assert!(
                matches!(
                    parse_roll(bad),
                    Err(PoolError::NotInChain(_) | PoolError::BadToken(_))
                ),
                "{bad}"
            );
        }
        assert_eq!(parse_roll("d100+d4"), Err(PoolError::NotInChain(100)));
        assert!(parse_roll("d12+d4").is_ok());
    }

    #[test]
    fn wa_3_wa_7_a_roll_has_one_or_two_form_dice() {
        assert_eq!(parse_roll("d12+d10+d8"), Err(PoolError::FormDice(3)));
        assert_eq!(parse_roll("adv"), Err(PoolError::FormDice(0)));
        assert!(parse_roll("d6").is_ok()); // WA-8: an NPC form with one die left
    }

    #[test]
    fn wa_9_wa_10_wa_18_wa_20_bonus_dice_are_the_rules_own_and_come_once() {
        assert_eq!(parse_roll("d8+b7"), Err(PoolError::NotABonusDie(7)));
        assert_eq!(parse_roll("d8+b6"), Err(PoolError::NotABonusDie(6)));
        assert_eq!(
            parse_roll("d8+b8+b10"),
            Err(PoolError::Repeated("a strength die", "WA-10"))
        );
        assert_eq!(
            parse_roll("d8+owe+owe"),
            Err(PoolError::Repeated("an Owe d6", "WA-18"))
        );
        assert_eq!(
            parse_roll("d8+adv+adv"),
            Err(PoolError::Repeated("the Advantage die", "WA-20"))
        );
        let msg = parse_roll("d8+b7").unwrap_err().to_string();
        assert!(msg.contains("WA-9"), "{msg}");
    }

    #[test]
    fn wa_20_one_participant_holds_the_advantage() {
        let both = exchange(&pool("d8+adv"), &pool("d10+adv"), 1, ChallengeKind::Fresh);
        assert_eq!(both.unwrap_err(), PoolError::AdvantageTwice);
        // WA-19: a whole conflict starts with the Advantage die unheld.
        assert_eq!(
            conflict(&pool("d8+d6+adv"), &pool("d10")).unwrap_err(),
            PoolError::AdvantageAtStart
        );
        // WA-21: three rounds at most.
        let late = exchange(&pool("d8"), &pool("d10"), 4, ChallengeKind::Fresh);
        assert_eq!(late.unwrap_err(), PoolError::Round(4));
    }
}
