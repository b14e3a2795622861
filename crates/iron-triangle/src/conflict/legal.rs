//! The commands a seat may send now. Every command listed here is accepted by `decide`; free
//! choices (stakes, outcomes, splits) are represented by a few typical values.

use clash_core::Seat;

use super::choice::MoveSet;
use super::{
    Conflict, ConflictCommand, FighterId, MoveChoice, Name, Phase, Picker, Status, Step, Turn,
    choice, controller, losses, specials, turn,
};
use crate::Table;
use crate::character::PerAction;
use crate::moves::Action;

pub fn legal_commands(table: &Table, seat: Seat) -> Vec<ConflictCommand> {
    let mut out = play_commands(table, seat);
    if seat == Seat::Gm {
        out.extend(gm_commands(table));
    }
    out.extend(narration(table, seat));
    out
}

/// IT-27: after a win, the winners' players and the GM may narrate the outcome.
fn narration(table: &Table, seat: Seat) -> Option<ConflictCommand> {
    let c = table.conflict.as_ref()?;
    c.outcome.as_ref()?.winner?;
    let text = format!("As staked: {}", c.stakes);
    super::ending::narrate(table, seat, &text, &mut Vec::new())
        .ok()
        .map(|_| ConflictCommand::NarrateConflict { text })
}

/// A legal play in compact form (fighter indices, no names): cheap to list in the hot path of
/// the random driver; [`Play::command`] turns the chosen one into a command.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Play {
    Join(FighterId),
    SitOut(FighterId),
    RefuseLethal,
    PickActive(FighterId),
    PickOpponent(FighterId),
    EndChain,
    Stance(FighterId, Option<Action>, u32),
    Move(FighterId, MoveChoice),
    Special(FighterId, specials::PlayedSpecialChoice),
    Pass(FighterId),
    Swap(FighterId),
    Split {
        bearer: FighterId,
        split: PerAction<u32>,
        gain: bool,
    },
    Kill,
    Spare,
}

impl Play {
    pub fn command(self, c: &Conflict) -> ConflictCommand {
        let name = |f: FighterId| c.f(f).name.clone();
        match self {
            Play::Join(f) => ConflictCommand::JoinConflict { character: name(f) },
            Play::SitOut(f) => ConflictCommand::SitOut { character: name(f) },
            Play::RefuseLethal => ConflictCommand::RefuseLethal {},
            Play::PickActive(f) => ConflictCommand::PickActive { character: name(f) },
            Play::PickOpponent(f) => ConflictCommand::PickOpponent { opponent: name(f) },
            Play::EndChain => ConflictCommand::EndChain {},
            Play::Stance(f, action, amount) => ConflictCommand::TakeStance {
                character: name(f),
                action,
                amount,
            },
            Play::Move(f, choice) => ConflictCommand::PlayMove {
                character: name(f),
                choice,
            },
            Play::Special(f, o) => ConflictCommand::PlaySpecial {
                character: name(f),
                special: o.special,
                target: o.target.map(name),
                copy: o.copy,
            },
            Play::Pass(f) => ConflictCommand::PassWindow { character: name(f) },
            Play::Swap(f) => ConflictCommand::DrunkenSwap { character: name(f) },
            Play::Split {
                bearer,
                split,
                gain: false,
            } => ConflictCommand::SplitLoss {
                character: name(bearer),
                split,
            },
            Play::Split {
                bearer,
                split,
                gain: true,
            } => ConflictCommand::SplitGain {
                character: name(bearer),
                split,
            },
            Play::Kill => ConflictCommand::KillSurrendered {},
            Play::Spare => ConflictCommand::SpareSurrendered {},
        }
    }
}

/// Commands that move the conflict on (no GM administration): what the random driver plays.
pub fn play_commands(table: &Table, seat: Seat) -> Vec<ConflictCommand> {
    let mut plays = Vec::new();
    plays_for(table, seat, &mut plays);
    match table.conflict.as_ref() {
        Some(c) => plays.into_iter().map(|p| p.command(c)).collect(),
        None => Vec::new(),
    }
}

/// Where listed plays go, each with the seat that may play it: a plain list, or the random
/// driver's list of every seat's plays.
pub trait PlaySink {
    fn add(&mut self, seat: Seat, play: Play);

    /// About `n` more plays are coming (a hint, so a list grows once).
    fn expect(&mut self, _n: usize) {}

    /// Every move of `f` in `moves` (in [`MoveSet::iter`] order), then Surrender if `surrender`.
    /// A sink that only counts or picks need not write them out.
    fn add_moves(&mut self, seat: Seat, f: FighterId, moves: MoveSet, surrender: bool) {
        self.expect(moves.len() + usize::from(surrender));
        for m in moves.iter() {
            self.add(seat, Play::Move(f, MoveChoice::Play(m)));
        }
        if surrender {
            self.add(seat, Play::Move(f, MoveChoice::Surrender));
        }
    }

    /// Every stance of `f` with current energy `energy`, in [`stance_play`] order: no stance,
    /// then 1 ..= the energy of each type, types in [`Action::ALL`] order (IT-33). A sink that
    /// only counts or picks need not write them out.
    fn add_stances(&mut self, seat: Seat, f: FighterId, energy: PerAction<u32>) {
        self.expect(stance_count(energy));
        for i in 0..stance_count(energy) {
            self.add(seat, stance_play(f, energy, i));
        }
    }
}

/// How many stances a character with current energy `energy` may take: no stance, or 1 up to
/// the energy of one type (IT-33).
pub fn stance_count(energy: PerAction<u32>) -> usize {
    1 + energy.total() as usize
}

/// The `i`-th of the [`stance_count`] stances, in listing order.
pub fn stance_play(f: FighterId, energy: PerAction<u32>, i: usize) -> Play {
    let Some(mut rest) = i.checked_sub(1) else {
        return Play::Stance(f, None, 0);
    };
    for a in Action::ALL {
        let n = energy.get(a) as usize;
        if rest < n {
            return Play::Stance(f, Some(a), rest as u32 + 1);
        }
        rest -= n;
    }
    panic!("stance {i} of {} listed", stance_count(energy))
}

impl PlaySink for Vec<Play> {
    fn add(&mut self, _seat: Seat, play: Play) {
        self.push(play);
    }

    fn expect(&mut self, n: usize) {
        self.reserve(n);
    }
}

/// Append every legal play of `seat` to `out`.
pub fn plays_for(table: &Table, seat: Seat, out: &mut Vec<Play>) {
    plays_into(table, Some(seat), out);
}

/// Hand every legal play of `only` (or of every seat) to `out`. One seat's plays come in the
/// order [`plays_for`] lists them; with every seat, the seats' plays may be interleaved (in a
/// turn each play is listed once, for the seat it belongs to).
pub fn plays_into(table: &Table, only: Option<Seat>, out: &mut impl PlaySink) {
    let Some(c) = table.conflict.as_ref().filter(|c| c.is_running()) else {
        return;
    };
    if let (Phase::Turn, Some(t)) = (&c.phase, c.turn.as_ref()) {
        return in_turn(table, c, t, only, out);
    }
    match only {
        Some(seat) => between_turns(table, c, seat, out),
        None => {
            for seat in std::iter::once(Seat::Gm).chain(table.players.iter().copied()) {
                between_turns(table, c, seat, out);
            }
        }
    }
}

/// A seat's plays outside a turn: answering the call to a conflict, picking the active
/// character, or deciding a surrendered opponent's fate.
fn between_turns(table: &Table, c: &Conflict, seat: Seat, out: &mut impl PlaySink) {
    match &c.phase {
        Phase::Forming => forming(table, c, seat, out),
        Phase::PickActive { side, .. } => {
            for f in c
                .ids()
                .filter(|f| c.is_in(*f) && side.is_none_or(|s| c.f(*f).side == s))
            {
                if turn::pick_refusal(table, c, seat, f).is_none() {
                    out.add(seat, Play::PickActive(f));
                }
            }
        }
        Phase::Mercy { decider, .. } if *decider == seat => {
            out.add(seat, Play::Kill);
            out.add(seat, Play::Spare);
        }
        _ => {}
    }
}

fn forming(table: &Table, c: &Conflict, seat: Seat, out: &mut impl PlaySink) {
    for f in c
        .ids()
        .filter(|f| c.f(*f).status == Status::Pending && controller(table, c, *f) == seat)
    {
        out.add(seat, Play::Join(f));
        if !c.lethal {
            out.add(seat, Play::SitOut(f));
        }
    }
    if c.lethal && seat != Seat::Gm && table.players.contains(&seat) {
        out.add(seat, Play::RefuseLethal);
    }
}

/// The GM's administrative commands: starting, settling, revealing NPCs.
fn gm_commands(table: &Table) -> Vec<ConflictCommand> {
    let mut out = Vec::new();
    match table.conflict.as_ref().filter(|c| c.is_running()) {
        None => {
            let npcs: Vec<_> = table
                .characters
                .iter()
                .filter(|c| !c.is_pc() && !c.dead && super::entry::barred(c).is_none())
                .take(1)
                .map(|c| Name::from(&c.name))
                .collect();
            let pc_can_enter = table
                .characters
                .iter()
                .any(|c| c.is_pc() && !c.dead && super::entry::barred(c).is_none());
            if !npcs.is_empty() && pc_can_enter {
                out.push(ConflictCommand::StartConflict {
                    stakes: "Win: the way is clear. Loss: a setback.".into(),
                    npcs,
                    lethal: false,
                    minor: false,
                });
            }
        }
        Some(c) => {
            let stalled_samurai = c.fighters.iter().any(|f| {
                f.samurai
                    && f.status == Status::In
                    && table.characters[f.character].energy.total() == 0
            });
            if matches!(
                c.phase,
                Phase::Forming
                    | Phase::PickActive {
                        picker: Picker::Players,
                        ..
                    }
            ) || stalled_samurai
            {
                out.push(ConflictCommand::SettleConflict {
                    outcome: "The GM settles it: a significant setback.".into(),
                });
            }
        }
    }
    for ch in table
        .characters
        .iter()
        .filter(|c| !c.is_pc() && !c.revealed)
    {
        out.push(ConflictCommand::RevealNpc {
            character: Name::from(&ch.name),
        });
    }
    out
}

/// The plays of a turn in progress, each for the seat of the character it is about (`only`: of
/// that seat alone).
fn in_turn(table: &Table, c: &Conflict, t: &Turn, only: Option<Seat>, out: &mut impl PlaySink) {
    let wanted = |s: Seat| only.is_none_or(|o| o == s);
    let seat_of = |f: FighterId| controller(table, c, f);
    let active_seat = seat_of(t.active);
    let chain_endable = c.chain.is_some()
        && (matches!(t.step, Step::PickOpponent | Step::Stances)
            || (t.step == Step::Moves && t.moves[0].is_none()));
    match t.step {
        Step::PickOpponent if wanted(active_seat) => {
            let side = c.f(t.active).side;
            for o in c.ids().filter(|o| c.is_in(*o) && c.f(*o).side != side) {
                if turn::may_face(c, t.active, o).is_ok() {
                    out.add(active_seat, Play::PickOpponent(o));
                }
            }
        }
        Step::Stances => {
            for (slot, f) in participants(t) {
                let seat = seat_of(f);
                if t.stances[slot].is_none() && wanted(seat) {
                    out.add_stances(seat, f, super::character(table, c, f).energy.current);
                }
            }
        }
        Step::Moves => {
            for (slot, f) in participants(t) {
                let seat = seat_of(f);
                if t.moves[slot].is_none() && wanted(seat) {
                    let moves = choice::available(table, c, f, t.forbidden[slot]);
                    out.add_moves(seat, f, moves, !c.f(f).samurai);
                }
            }
        }
        Step::AfterReveal | Step::BeforeResolution => {
            for &f in &t.asked {
                let seat = seat_of(f);
                if t.done.contains(&f) || !wanted(seat) {
                    continue;
                }
                if t.step == Step::AfterReveal
                    && c.f(f).drunken_monkey
                    && t.slot(f).is_some_and(|s| !t.swapped[s])
                {
                    out.add(seat, Play::Swap(f));
                }
                out.add(seat, Play::Pass(f));
            }
        }
        Step::Settling => splits(table, c, only, out),
        _ => {}
    }
    if chain_endable && wanted(active_seat) {
        out.add(active_seat, Play::EndChain);
    }
    for f in c.ids() {
        let knows_specials = table
            .characters
            .get(c.f(f).character)
            .is_some_and(|ch| !ch.specials.is_empty());
        if knows_specials && wanted(seat_of(f)) && specials::open_window(c, t, f).is_some() {
            for o in specials::options(table, c, t, f) {
                out.add(seat_of(f), Play::Special(f, o));
            }
        }
    }
}

fn participants(t: &Turn) -> impl Iterator<Item = (usize, FighterId)> + '_ {
    [Some(t.active), t.opponent]
        .into_iter()
        .enumerate()
        .filter_map(|(s, f)| f.map(|f| (s, f)))
}

/// A few typical splits: each order of filling the types, greedily.
fn splits(table: &Table, c: &Conflict, only: Option<Seat>, out: &mut impl PlaySink) {
    let Some(seat) = losses::waiting_splitter(c).filter(|s| only.is_none_or(|o| o == *s)) else {
        return;
    };
    let Some((character, splitter, room, amount, gain)) = losses::waiting_split(table, c) else {
        return;
    };
    let Some(bearer) = c.fighter_id(&character) else {
        return;
    };
    if splitter != seat {
        return;
    }
    let orders = [
        [Action::Defend, Action::Grapple, Action::Attack],
        [Action::Defend, Action::Attack, Action::Grapple],
        [Action::Grapple, Action::Defend, Action::Attack],
        [Action::Grapple, Action::Attack, Action::Defend],
        [Action::Attack, Action::Defend, Action::Grapple],
        [Action::Attack, Action::Grapple, Action::Defend],
    ];
    // The same split reached by two orders is listed once.
    let mut listed: [Option<PerAction<u32>>; 6] = [None; 6];
    for (i, order) in orders.into_iter().enumerate() {
        let mut left = amount;
        let mut split = PerAction::default();
        for a in order {
            let take = left.min(room.get(a));
            *split.get_mut(a) = take;
            left -= take;
        }
        if !listed[..i].contains(&Some(split)) {
            out.add(
                seat,
                Play::Split {
                    bearer,
                    split,
                    gain,
                },
            );
        }
        listed[i] = Some(split);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_move_set_lists_and_picks_moves_in_rulebook_order() {
        use crate::moves::Move;
        for bits in [0u16, 1, 0b1_0110_1001_0011, 0b1_1111_1111_1111] {
            let set = MoveSet(bits);
            let listed: Vec<Move> = Move::ALL.into_iter().filter(|m| set.contains(*m)).collect();
            assert_eq!(set.iter().collect::<Vec<_>>(), listed);
            assert_eq!(set.len(), listed.len());
            for (i, m) in listed.iter().enumerate() {
                assert_eq!(set.nth(i), Some(*m));
            }
            assert_eq!(set.nth(listed.len()), None);
        }
    }

    #[test]
    fn stances_are_counted_and_picked_in_listing_order() {
        let energy = PerAction {
            defend: 2,
            grapple: 0,
            attack: 3,
        };
        let mut written = vec![Play::Stance(1, None, 0)];
        for a in Action::ALL {
            for amount in 1..=energy.get(a) {
                written.push(Play::Stance(1, Some(a), amount));
            }
        }
        assert_eq!(stance_count(energy), written.len());
        let picked: Vec<Play> = (0..stance_count(energy))
            .map(|i| stance_play(1, energy, i))
            .collect();
        assert_eq!(picked, written);
        let mut listed = Vec::new();
        listed.add_stances(Seat::Gm, 1, energy);
        assert_eq!(listed, written);
    }
}
