//! In A Wicked Age odds as reports: the arithmetic is the engine's own exact-odds module
//! ([`wicked_age::odds`]); this module reads dice pools written as text and lays the results out.
//!
//! Pool syntax: dice joined by `+`. `dN` is a form die (High/Low, WA-11); `bN` is a bonus die
//! added to P; `adv` (the Advantage d6) and `owe` (an Owe d6) are `b6` by another name.
//! Examples: `d12+d8`, `d8+d4+adv`, `d6+d6+b8` (a strength d8).

use serde::Serialize;
use wicked_age::odds::{self, Pool};
use wicked_age::roll::Outcome;

use crate::exact::Probability;

/// A pool could not be read or analysed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PoolError {
    #[error("{0:?} is not a die: write dN (form die), bN (bonus die), adv or owe")]
    BadToken(String),
    #[error("{0}")]
    Odds(String),
}

/// Parse `d12+d8+adv` into a pool.
pub fn parse_pool(text: &str) -> Result<Pool, PoolError> {
    let mut form = Vec::new();
    let mut bonus = Vec::new();
    for token in text.split('+').map(|t| t.trim().to_ascii_lowercase()) {
        let sides = |rest: &str| rest.parse::<u32>().ok().filter(|s| *s > 0);
        match token.as_str() {
            "adv" | "advantage" | "owe" => bonus.push(6),
            t if t.starts_with('d') => {
                form.push(sides(&t[1..]).ok_or_else(|| PoolError::BadToken(token.clone()))?)
            }
            t if t.starts_with('b') => {
                bonus.push(sides(&t[1..]).ok_or_else(|| PoolError::BadToken(token.clone()))?)
            }
            _ => return Err(PoolError::BadToken(token)),
        }
    }
    let pool = Pool::new(form).with_bonus(bonus);
    pool.distribution()
        .map_err(|e| PoolError::Odds(e.to_string()))?;
    Ok(pool)
}

/// Write a pool back in the syntax above.
pub fn pool_text(pool: &Pool) -> String {
    let form = pool.form.iter().map(|s| format!("d{s}"));
    let bonus = pool.bonus.iter().map(|s| format!("b{s}"));
    form.chain(bonus).collect::<Vec<_>>().join("+")
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
    answer: &Pool,
    challenge: &Pool,
    round: u8,
    kind: ChallengeKind,
) -> Result<ExchangeReport, PoolError> {
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
        answer: pool_text(answer),
        challenge: pool_text(challenge),
        round: round.clamp(1, 3),
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
pub fn conflict(x: &Pool, y: &Pool) -> Result<ConflictReport, PoolError> {
    let err = |e: odds::OddsError| PoolError::Odds(e.to_string());
    let c = odds::conflict(x, y).map_err(err)?;
    let i = odds::initiative(x, y).map_err(err)?;
    Ok(ConflictReport {
        x: pool_text(x),
        y: pool_text(y),
        x_wins: (&c.x_wins).into(),
        y_wins: (&c.y_wins).into(),
        initiative_x_higher: (&i.x_higher).into(),
        initiative_tie: (&i.tie).into(),
        initiative_y_higher: (&i.y_higher).into(),
        x_first_after_rerolls: (&i.x_first).into(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::exact::is_distribution;

    fn pool(t: &str) -> Pool {
        parse_pool(t).unwrap()
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
            ("d4", "d12+d12"),
            ("d6+adv", "d10+d4+owe"),
            ("d12+d10+d8", "d4"),
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
            a in proptest::collection::vec(die(), 1..3), ab in proptest::collection::vec(die(), 0..2),
            c in proptest::collection::vec(die(), 1..3), round in 1u8..4,
        ) {
            let answer = Pool::new(a).with_bonus(ab);
            let challenge = Pool::new(c);
            let r = exchange(&answer, &challenge, round, ChallengeKind::Fresh).unwrap();
            let exact: Vec<_> = r.bands.iter().map(|b| b.probability.exact().unwrap()).collect();
            proptest::prop_assert!(is_distribution(&exact));
        }
    }

    #[test]
    fn malformed_pools_are_refused() {
        for bad in ["", "d0", "x6", "d12+", "b6", "d12+bz"] {
            assert!(parse_pool(bad).is_err(), "{bad}");
        }
        assert_eq!(pool_text(&pool("D12+d8+adv")), "d12+d8+b6");
    }
}
