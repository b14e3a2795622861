//! Property tests of the campaign: random play through `legal_commands` plus random (mostly
//! illegal) commands. No view or event shows another seat's unrevealed problem pick (IT-2);
//! background points and energy stay in range (IT-9, IT-10, D-18). (Replay, refusals that
//! change nothing and legal commands accepted are the kernel's laws: see `laws.rs`.)

use crate::campaign_support;

use campaign_support::*;
use clash_core::{Ruleset, Seat, SeededRandomness, Viewer};
use iron_triangle::campaign::{CampaignCommand, CampaignEvent, ProblemOption, RestKind, TraitKind};
use iron_triangle::{Command, Event, IronTriangle, Setup, Table};
use proptest::prelude::*;
use serde_json::{Value, json};

fn setup() -> Setup {
    let mut ready = ada("p1");
    ready["established"] = json!(true);
    ready["current"] = json!({"defend": 1, "grapple": 0, "attack": 2});
    ready["marks"] = json!({"q1": true, "goal": true, "zero": {"defend": false, "grapple": true, "attack": false}});
    let mut npc = hero("Boss", "gm");
    npc["established"] = json!(true);
    serde_json::from_value(json!({
        "characters": [ready, hero("Bo", "p2"), hero("Cy", "p3"), npc],
        "countdowns": [{"name": "Flood", "boxes": 4}],
        "campaign": {"rest_due": true}
    }))
    .expect("setup")
}

const SEATS: [Seat; 4] = [Seat::Gm, Seat::Player(1), Seat::Player(2), Seat::Player(3)];

/// A random campaign command, often illegal: wrong seat, stage, names or values.
fn wild_command() -> impl Strategy<Value = CampaignCommand> {
    let name = prop::sample::select(vec!["Ada", "Bo", "Cy", "Boss", "Nobody", "", "Flood"]);
    let option = prop::sample::select(ProblemOption::ALL.to_vec());
    let which = prop::option::of(prop::sample::select(vec![
        TraitKind::Belief,
        TraitKind::Flaw,
    ]));
    let seat = prop::sample::select(SEATS.to_vec());
    prop_oneof![
        (option.clone(), which)
            .prop_map(|(option, which)| CampaignCommand::ChooseOption { option, which }),
        Just(CampaignCommand::PassProblem {}),
        option
            .clone()
            .prop_map(|substitute| CampaignCommand::Veto { substitute }),
        seat.clone()
            .prop_map(|seat| CampaignCommand::PickDecider { seat }),
        seat.prop_map(|seat| CampaignCommand::PickVeto { seat }),
        (
            name.clone(),
            prop::option::of(prop::sample::select(vec![
                "Detective",
                "Sailor",
                "Cook",
                "New"
            ]))
        )
            .prop_map(|(t, b)| {
                CampaignCommand::NarrateOutcome {
                    text: t.to_string(),
                    background: b.map(str::to_string),
                }
            }),
        name.clone().prop_map(|d| CampaignCommand::OpenProblem {
            description: d.to_string()
        }),
        Just(CampaignCommand::CloseProblem {}),
        (name.clone(), 0u32..12).prop_map(|(n, boxes)| CampaignCommand::CreateCountdown {
            name: n.to_string(),
            boxes
        }),
        name.clone().prop_map(|n| CampaignCommand::MarkCountdown {
            name: n.to_string()
        }),
        prop::sample::select(vec![
            RestKind::Breather,
            RestKind::ShortRest,
            RestKind::FullRest
        ])
        .prop_map(|kind| CampaignCommand::Rest {
            kind,
            picks: Default::default()
        }),
        Just(CampaignCommand::EndSession {}),
        Just(CampaignCommand::StartSession {}),
        (name, any::<bool>()).prop_map(|(n, achieved)| CampaignCommand::MarkGoal {
            character: n.to_string(),
            achieved
        }),
    ]
}

#[derive(Debug, Clone)]
enum Step {
    /// Pick the n-th legal command of a seat.
    Legal(usize, usize),
    /// Try a random command from a seat.
    Wild(usize, CampaignCommand),
}

fn step() -> impl Strategy<Value = Step> {
    prop_oneof![
        3 => (0usize..4, any::<usize>()).prop_map(|(s, n)| Step::Legal(s, n)),
        1 => (0usize..4, wild_command()).prop_map(|(s, c)| Step::Wild(s, c)),
    ]
}

/// Only campaign commands are driven here; the conflict engine has its own properties.
fn campaign_legal(table: &Table, seat: Seat) -> Vec<Command> {
    IronTriangle::legal_commands(table, seat)
        .into_iter()
        .filter(|c| matches!(c, Command::Campaign(_)))
        .collect()
}

fn check_ranges(table: &Table) -> Result<(), TestCaseError> {
    for c in &table.characters {
        for b in &c.backgrounds {
            prop_assert!(b.current <= b.max && b.max <= 2, "D-18: {} {:?}", c.name, b); // D-18
        }
        let maxes: u32 = c.backgrounds.iter().map(|b| b.max).sum();
        prop_assert!(maxes + c.unassigned_points <= 3, "IT-10: {}", c.name); // IT-10
        for (i, b) in c.backgrounds.iter().enumerate() {
            let twice = c.backgrounds[..i]
                .iter()
                .any(|o| iron_triangle::names::same(&o.name, &b.name));
            prop_assert!(!twice, "IT-10: {} holds {} twice", c.name, b.name); // IT-10
        }
        prop_assert!(c.background_points() <= 3); // IT-10
        for a in iron_triangle::Action::ALL {
            prop_assert!(
                c.energy.current.get(a) <= c.energy.max.get(a),
                "IT-9: {}",
                c.name
            ); // IT-9
        }
    }
    Ok(())
}

/// IT-2: a committed, unrevealed pick shows only to its owner, in views and in events.
fn check_secrecy(table: &Table, log: &[Event]) -> Result<(), TestCaseError> {
    let viewers = SEATS
        .iter()
        .map(|s| Viewer::Seat(*s))
        .chain([Viewer::Spectator]);
    for viewer in viewers {
        let view = serde_json::to_value(IronTriangle::view(table, viewer)).expect("view");
        if let Some(choosers) = view["campaign"]["problem"]["choosers"].as_array() {
            let revealed = view["campaign"]["problem"]["revealed"] == json!(true);
            for c in choosers {
                let owner = c["seat"].as_str().and_then(|s| s.parse::<Seat>().ok());
                if c.get("pick").is_some() {
                    prop_assert!(
                        revealed || owner.is_some_and(|o| viewer.is(o)),
                        "IT-2: {viewer} sees {c}"
                    ); // IT-2
                }
            }
        }
        for e in log {
            if let Some(Event::Campaign(CampaignEvent::OptionCommitted { seat, pick, .. })) =
                IronTriangle::event_view(e, viewer)
            {
                prop_assert!(
                    pick.is_none() || viewer.is(seat),
                    "IT-2: {viewer} sees {seat}'s pick"
                ); // IT-2
            }
        }
    }
    Ok(())
}

fn run(steps: &[Step]) -> Result<(), TestCaseError> {
    let mut table = IronTriangle::setup(&setup()).expect("setup");
    let mut log: Vec<Event> = Vec::new();
    let mut rng = SeededRandomness::new(1);
    for s in steps {
        let (seat, command) = match s {
            Step::Legal(seat, n) => {
                let seat = SEATS[*seat];
                let legal = campaign_legal(&table, seat);
                if legal.is_empty() {
                    continue;
                }
                (seat, legal[*n % legal.len()].clone())
            }
            Step::Wild(seat, c) => (SEATS[*seat], Command::Campaign(c.clone())),
        };
        // Refusals, legal commands and replay are the kernel's laws (`laws.rs`).
        if let Ok(events) = IronTriangle::decide(&table, seat, &command, &mut rng) {
            for e in &events {
                IronTriangle::apply(&mut table, e);
            }
            log.extend(events);
        }
        check_ranges(&table)?;
        check_secrecy(&table, &log)?;
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    #[test]
    fn random_campaign_play_keeps_every_invariant(steps in prop::collection::vec(step(), 1..60)) {
        run(&steps)?;
    }

    /// Problem-heavy play: the GM keeps opening problems and players commit and veto.
    #[test]
    fn it_2_random_problem_commands_never_leak_unrevealed_picks(
        picks in prop::collection::vec((1usize..4, wild_command()), 1..40)
    ) {
        let mut steps = vec![Step::Wild(0, CampaignCommand::OpenProblem { description: "P".into() })];
        for (i, (seat, c)) in picks.into_iter().enumerate() {
            steps.push(Step::Wild(seat, c));
            if i % 5 == 4 {
                steps.push(Step::Legal(0, i));
            }
        }
        run(&steps)?;
    }
}

/// Arbitrary JSON-shaped campaign commands: they parse or not, and are decided without panic.
fn json_command() -> impl Strategy<Value = Value> {
    let types = prop::sample::select(vec![
        "create_character",
        "create_replacement",
        "rename_move",
        "create_countdown",
        "mark_countdown",
        "narrate_countdown",
        "erase_countdown",
        "open_problem",
        "choose_option",
        "pass_problem",
        "pick_decider",
        "narrate_outcome",
        "reject_narration",
        "veto",
        "pick_veto",
        "close_problem",
        "rest",
        "recover_npc",
        "mark_goal",
        "end_session",
        "level_up",
        "rewrite_traits",
        "change_background",
        "start_session",
    ]);
    let number = prop_oneof![
        Just(0u64),
        Just(1),
        Just(2),
        Just(4),
        Just(u64::from(u32::MAX)),
        any::<u64>()
    ];
    let text = prop::sample::select(vec![
        "Ada", "Bo", "", "Flood", "A-H", "G-S", "p1", "gm", "veto", "grapple",
    ]);
    (types, number.clone(), number, text.clone(), text).prop_map(|(ty, n, m, a, b)| {
        json!({
            "type": ty, "option": n, "substitute": m, "boxes": n, "level": m, "name": a, "character": a,
            "description": b, "text": b, "reason": b, "consequences": b, "seat": b, "move": b,
            "background": a, "new_name": b, "achieved": n % 2 == 0, "kind": "full_rest",
            "improvement": {"kind": "energy", "action": b}, "refill": "veto", "replaces": a,
            "sheet": ada(if n % 2 == 0 { "p1" } else { "gm" }),
            "current": {"defend": n, "grapple": m, "attack": 1}
        })
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 128, ..ProptestConfig::default() })]

    #[test]
    fn no_command_panics(commands in prop::collection::vec((0usize..4, json_command()), 1..30)) {
        let mut table = IronTriangle::setup(&setup()).expect("setup");
        let mut rng = SeededRandomness::new(2);
        for (seat, raw) in commands {
            let decided = serde_json::from_value::<Command>(raw)
                .ok()
                .and_then(|command| IronTriangle::decide(&table, SEATS[seat], &command, &mut rng).ok());
            for e in decided.iter().flatten() {
                IronTriangle::apply(&mut table, e);
            }
            check_ranges(&table)?;
        }
    }
}

#[test]
fn legal_commands_are_accepted_at_each_stage_of_a_problem() {
    let mut t = T::three();
    let accepted = |t: &T, seat: Seat| {
        for c in IronTriangle::legal_commands(t.state(), seat) {
            let mut rng = SeededRandomness::new(3);
            assert!(
                IronTriangle::decide(t.state(), seat, &c, &mut rng).is_ok(),
                "{seat} {c:?}"
            );
        }
    };
    let has = |t: &T, seat: Seat, ty: &str| {
        IronTriangle::legal_commands(t.state(), seat)
            .iter()
            .any(|c| serde_json::to_value(c).unwrap()["type"] == ty)
    };
    assert!(has(&t, GM, "open_problem"));
    t.ok(
        GM,
        json!({"type": "open_problem", "description": "Stage test"}),
    );
    assert!(has(&t, P1, "choose_option") && has(&t, P1, "pass_problem"));
    assert!(!has(&t, GM, "open_problem"));
    t.ok(P1, json!({"type": "choose_option", "option": 2}));
    t.ok(P2, json!({"type": "choose_option", "option": 2}));
    t.ok(P3, json!({"type": "pass_problem"}));
    assert!(has(&t, GM, "pick_decider"));
    for seat in [GM, P1, P2, P3] {
        accepted(&t, seat);
    }
    t.ok(GM, json!({"type": "pick_decider", "seat": "p2"}));
    assert!(has(&t, P2, "narrate_outcome") && !has(&t, P1, "narrate_outcome"));
    t.ok(
        P2,
        json!({"type": "narrate_outcome", "text": "Done.", "background": "Sailor"}),
    );
    assert!(has(&t, P1, "veto") && !has(&t, P2, "veto") && has(&t, GM, "close_problem"));
    for seat in [GM, P1, P2, P3] {
        accepted(&t, seat);
    }
}

#[test]
fn no_input_panics_on_malformed_json() {
    let inputs: Vec<Value> = vec![
        json!({"type": "choose_option", "option": 0}),
        json!({"type": "choose_option", "option": 5}),
        json!({"type": "veto", "substitute": 9}),
        json!({"type": "level_up", "character": "Ada", "improvement": {"kind": "energy"}}),
        json!({"type": "rest", "kind": "nap"}),
    ];
    for v in inputs {
        assert!(serde_json::from_value::<Command>(v).is_err()); // refused at parsing, no panic
    }
}
