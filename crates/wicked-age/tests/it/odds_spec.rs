//! Every figure of spec §10 reproduced as the same reduced fraction.

use wicked_age::odds::{self, Fraction, Pool};

fn f(text: &str) -> Fraction {
    Fraction::parse(text).expect("fraction")
}

#[test]
fn p1_rounds_one_two_d10_d6_answers_d12_d8() {
    let o = odds::exchange(&Pool::new([10, 6]), &Pool::new([12, 8])).unwrap();
    assert_eq!(o.challenger_knocked_out, f("63/640"));
    assert_eq!(o.answerer_takes_advantage, f("87/320"));
    assert_eq!(o.challenger_takes_advantage, f("761/1920"));
    assert_eq!(o.answerer_knocked_out, f("7/30"));
}

#[test]
fn p2_answer_at_least_challenge() {
    let o = odds::exchange(&Pool::new([10, 6]), &Pool::new([12, 8])).unwrap();
    assert_eq!(o.answer_at_least_challenge(), f("237/640"));
}

#[test]
fn p3_round_three() {
    let o = odds::final_exchange(&Pool::new([10, 6]), &Pool::new([12, 8])).unwrap();
    assert_eq!(o.challenger_knocked_out, f("237/640"));
    assert_eq!(o.answerer_knocked_out, f("403/640"));
}

#[test]
fn p4_d12_d8_answers_d10_d6() {
    let o = odds::exchange(&Pool::new([12, 8]), &Pool::new([10, 6])).unwrap();
    assert_eq!(o.challenger_knocked_out, f("7/30"));
    assert_eq!(o.answerer_takes_advantage, f("53/128"));
    assert_eq!(o.challenger_takes_advantage, f("61/240"));
    assert_eq!(o.answerer_knocked_out, f("63/640"));
}

#[test]
fn p5_answer_with_advantage() {
    let o = odds::exchange(&Pool::new([8, 4]).with_bonus([6]), &Pool::new([12, 8])).unwrap();
    assert_eq!(o.challenger_knocked_out, f("409/2304"));
    assert_eq!(o.answerer_takes_advantage, f("3647/9216"));
    assert_eq!(o.challenger_takes_advantage, f("17/48"));
    assert_eq!(o.answerer_knocked_out, f("223/3072"));
}

#[test]
fn p6_challenge_with_strength() {
    let o = odds::exchange(&Pool::new([10, 8]), &Pool::new([6, 6]).with_bonus([8])).unwrap();
    assert_eq!(o.challenger_knocked_out, f("349/11520"));
    assert_eq!(o.answerer_takes_advantage, f("5849/23040"));
    assert_eq!(o.challenger_takes_advantage, f("10781/23040"));
    assert_eq!(o.answerer_knocked_out, f("119/480"));
}

#[test]
fn p7_d6_d6_mirror() {
    let o = odds::exchange(&Pool::new([6, 6]), &Pool::new([6, 6])).unwrap();
    assert_eq!(o.challenger_knocked_out, f("19/144"));
    assert_eq!(o.answerer_takes_advantage, f("85/216"));
    assert_eq!(o.challenger_takes_advantage, f("37/108"));
    assert_eq!(o.answerer_knocked_out, f("19/144"));
}

#[test]
fn p8_initiative_with_rerolled_ties() {
    let o = odds::initiative(&Pool::new([12, 10]), &Pool::new([10, 6])).unwrap();
    assert_eq!(o.x_higher, f("1657/2400"));
    assert_eq!(o.tie, f("19/1200"));
    assert_eq!(o.x_first, f("1657/2362"));
    assert!((o.x_first.to_f64() - 0.70152).abs() < 1e-5);
}

#[test]
fn p9_opening_exchange_after_winning_initiative() {
    let o = odds::opening_exchange(&Pool::new([12, 8]), &Pool::new([10, 6])).unwrap();
    assert_eq!(o.challenger_knocked_out, f("3749/217620"));
    assert_eq!(o.answerer_takes_advantage, f("3674/18135"));
    assert_eq!(o.challenger_takes_advantage, f("51541/108810"));
    assert_eq!(o.answerer_knocked_out, f("66701/217620"));
}

#[test]
fn p10_whole_conflict() {
    let o = odds::conflict(&Pool::new([12, 8]), &Pool::new([10, 6])).unwrap();
    assert_eq!(
        o.x_wins,
        f("965310719342751050011045507/1319641340826181469995008000")
    );
    assert!((o.x_wins.to_f64() - 0.7314948).abs() < 1e-7);
}

#[test]
fn p10_identical_pools_give_one_half() {
    for pool in [
        Pool::new([12, 8]),
        Pool::new([6, 4]),
        Pool::new([10, 10]).with_bonus([8]),
    ] {
        assert_eq!(odds::conflict(&pool, &pool).unwrap().x_wins, f("1/2"));
    }
}

#[test]
fn p3_as_a_table_of_outcomes() {
    use wicked_age::roll::{Outcome, Table};
    let rows =
        odds::exchange_table(&Pool::new([10, 6]), &Pool::new([12, 8]), Table::Final).unwrap();
    assert_eq!(
        rows,
        vec![
            (Outcome::ChallengerKnockedOut, f("237/640")),
            (Outcome::AnswererKnockedOut, f("403/640"))
        ]
    );
    let rows =
        odds::exchange_table(&Pool::new([10, 6]), &Pool::new([12, 8]), Table::Ordinary).unwrap();
    assert_eq!(rows[3], (Outcome::AnswererKnockedOut, f("7/30")));
}

#[test]
fn pools_out_of_range_are_refused() {
    assert_eq!(
        odds::exchange(&Pool::new([]), &Pool::new([6])).unwrap_err(),
        odds::OddsError::NoFormDie
    );
    assert_eq!(
        odds::exchange(&Pool::new([6]), &Pool::new([101])).unwrap_err(),
        odds::OddsError::BadDie(101)
    );
    let huge = Pool::new([100; 7]);
    assert_eq!(
        odds::conflict(&huge, &Pool::new([6])).unwrap_err(),
        odds::OddsError::TooManyThrows
    );
}
