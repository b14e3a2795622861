//! Character sheets: PC forms (WA-2 to WA-5), NPC forms (WA-6 to WA-8) and Particular
//! Strengths (WA-9, WA-10).

use clash_core::{RuleError, Seat};
use serde::{Deserialize, Serialize};

use clash_core::session_zero::FieldError;

use crate::dice::Die;
use crate::limits;

/// The six PC forms (WA-2).
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export_to = "wicked-age/"))]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum PcForm {
    Covertly,
    Directly,
    ForMyself,
    ForOthers,
    WithLove,
    WithViolence,
}

impl PcForm {
    pub const ALL: [PcForm; 6] = [
        PcForm::Covertly,
        PcForm::Directly,
        PcForm::ForMyself,
        PcForm::ForOthers,
        PcForm::WithLove,
        PcForm::WithViolence,
    ];

    pub fn label(self) -> &'static str {
        match self {
            PcForm::Covertly => "Covertly",
            PcForm::Directly => "Directly",
            PcForm::ForMyself => "For Myself",
            PcForm::ForOthers => "For Others",
            PcForm::WithLove => "With Love",
            PcForm::WithViolence => "With Violence",
        }
    }
}

/// The three NPC forms (WA-6).
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export_to = "wicked-age/"))]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum NpcForm {
    Action,
    Maneuvering,
    SelfProtection,
}

impl NpcForm {
    pub const ALL: [NpcForm; 3] = [
        NpcForm::Action,
        NpcForm::Maneuvering,
        NpcForm::SelfProtection,
    ];

    pub fn label(self) -> &'static str {
        match self {
            NpcForm::Action => "Action",
            NpcForm::Maneuvering => "Maneuvering",
            NpcForm::SelfProtection => "Self-protection",
        }
    }
}

/// A form of either kind of sheet; in JSON just the form's name (`"directly"`, `"action"`).
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export_to = "wicked-age/"))]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(untagged)]
pub enum FormRef {
    Pc(PcForm),
    Npc(NpcForm),
}

impl FormRef {
    pub fn label(self) -> &'static str {
        match self {
            FormRef::Pc(f) => f.label(),
            FormRef::Npc(f) => f.label(),
        }
    }
}

/// A PC's six forms, one die each.
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export_to = "wicked-age/"))]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PcForms {
    pub covertly: Die,
    pub directly: Die,
    pub for_myself: Die,
    pub for_others: Die,
    pub with_love: Die,
    pub with_violence: Die,
}

impl PcForms {
    pub fn get(&self, form: PcForm) -> Die {
        match form {
            PcForm::Covertly => self.covertly,
            PcForm::Directly => self.directly,
            PcForm::ForMyself => self.for_myself,
            PcForm::ForOthers => self.for_others,
            PcForm::WithLove => self.with_love,
            PcForm::WithViolence => self.with_violence,
        }
    }

    pub fn set(&mut self, form: PcForm, die: Die) {
        let slot = match form {
            PcForm::Covertly => &mut self.covertly,
            PcForm::Directly => &mut self.directly,
            PcForm::ForMyself => &mut self.for_myself,
            PcForm::ForOthers => &mut self.for_others,
            PcForm::WithLove => &mut self.with_love,
            PcForm::WithViolence => &mut self.with_violence,
        };
        *slot = die;
    }

    /// WA-2: the dice dealt at creation must be exactly {d12, d10, d8, d6, d6, d4}.
    pub fn is_creation_set(&self) -> bool {
        let mut dice: Vec<Die> = PcForm::ALL.iter().map(|f| self.get(*f)).collect();
        dice.sort();
        dice == [Die::D4, Die::D6, Die::D6, Die::D8, Die::D10, Die::D12]
    }

    pub fn zero_count(&self) -> usize {
        PcForm::ALL
            .iter()
            .filter(|f| self.get(**f).is_zero())
            .count()
    }
}

/// An NPC's three forms, two dice each (WA-6). The first die is the larger at creation.
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export_to = "wicked-age/"))]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NpcForms {
    pub action: [Die; 2],
    pub maneuvering: [Die; 2],
    pub self_protection: [Die; 2],
}

impl NpcForms {
    pub fn get(&self, form: NpcForm) -> [Die; 2] {
        match form {
            NpcForm::Action => self.action,
            NpcForm::Maneuvering => self.maneuvering,
            NpcForm::SelfProtection => self.self_protection,
        }
    }

    pub fn set(&mut self, form: NpcForm, dice: [Die; 2]) {
        match form {
            NpcForm::Action => self.action = dice,
            NpcForm::Maneuvering => self.maneuvering = dice,
            NpcForm::SelfProtection => self.self_protection = dice,
        }
    }

    /// WA-8: a form is at 0 when both its dice are 0.
    pub fn is_zero(&self, form: NpcForm) -> bool {
        self.get(form).iter().all(|d| d.is_zero())
    }

    /// WA-6: the pairs dealt are exactly {d12+d8, d10+d6, d6+d4}, one per form.
    pub fn is_creation_set(&self) -> bool {
        let mut pairs: Vec<[Die; 2]> = NpcForm::ALL
            .iter()
            .map(|f| {
                let mut p = self.get(*f);
                p.sort_by(|a, b| b.cmp(a));
                p
            })
            .collect();
        pairs.sort();
        pairs == [[Die::D6, Die::D4], [Die::D10, Die::D6], [Die::D12, Die::D8]]
    }

    pub fn zero_count(&self) -> usize {
        NpcForm::ALL.iter().filter(|f| self.is_zero(**f)).count()
    }
}

/// One significance choice of a Particular Strength (WA-9).
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export_to = "wicked-age/"))]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum Significance {
    /// Bonus die d10 instead of d8.
    Potent {},
    /// A second associated PC form.
    Broad { second_form: PcForm },
    /// Losing to this strength also costs the named form one size (WA-30).
    Consequential { pc_form: PcForm, npc_form: NpcForm },
    /// No other sheet may record this strength.
    Unique {},
    /// May be used beyond the holder's normal reach (narrative only).
    FarReaching {},
}

/// A Particular Strength as recorded on a sheet (WA-9).
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export_to = "wicked-age/"))]
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Strength {
    pub name: String,
    #[serde(default)]
    pub description: String,
    /// The associated PC form.
    pub pc_form: PcForm,
    /// The associated NPC form.
    pub npc_form: NpcForm,
    pub significance: Vec<Significance>,
    /// The bonus die; d8, or d10 when potent; stepped down or removed (0) by negotiated losses.
    pub die: Die,
}

impl Strength {
    /// Every PC form associated with the strength (two when broad).
    pub fn pc_forms(&self) -> Vec<PcForm> {
        let mut forms = vec![self.pc_form];
        for s in &self.significance {
            if let Significance::Broad { second_form } = s {
                forms.push(*second_form);
            }
        }
        forms
    }

    /// The (PC form, NPC form) a consequential strength threatens (WA-30).
    pub fn consequential(&self) -> Option<(PcForm, NpcForm)> {
        self.significance.iter().find_map(|s| match s {
            Significance::Consequential { pc_form, npc_form } => Some((*pc_form, *npc_form)),
            _ => None,
        })
    }

    pub fn is_unique(&self) -> bool {
        self.significance.contains(&Significance::Unique {})
    }

    pub fn is_far_reaching(&self) -> bool {
        self.significance.contains(&Significance::FarReaching {})
    }
}

/// A strength as written in the setup: the die follows from its significance.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StrengthSpec {
    pub name: String,
    #[serde(default)]
    pub description: String,
    pub pc_form: PcForm,
    pub npc_form: NpcForm,
    pub significance: Vec<Significance>,
    /// The die as it stands now, when negotiated losses have stepped it down or removed it
    /// (WA-27); a position writes it. Default: the die the significance gives.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub die: Option<Die>,
}

impl StrengthSpec {
    /// WA-9: a new strength has significance 1, so exactly one choice.
    pub fn build(&self, owner: &str) -> Result<Strength, RuleError> {
        if self.significance.len() != 1 {
            return Err(RuleError::setup(
                "WA-9",
                format!(
                    "{owner}'s strength {} needs exactly one significance choice (a new strength has significance 1)",
                    self.name
                ),
            ));
        }
        if let Some(Significance::Broad { second_form }) = self.significance.first()
            && *second_form == self.pc_form
        {
            return Err(RuleError::setup(
                "WA-9",
                format!(
                    "a broad strength's second form must differ from {}",
                    self.pc_form.label()
                ),
            ));
        }
        limits::TABLE.setup_name("a strength's name", &self.name)?;
        limits::TABLE.setup_text("a strength's description", &self.description)?;
        let new_die = if self.significance.contains(&Significance::Potent {}) {
            Die::D10
        } else {
            Die::D8
        };
        let die = self.die.unwrap_or(new_die);
        if die > new_die {
            return Err(RuleError::setup(
                "WA-9",
                format!(
                    "{owner}'s {} has a {new_die} at most: dice only ever step down",
                    self.name
                ),
            ));
        }
        Ok(Strength {
            name: self.name.clone(),
            description: self.description.clone(),
            pc_form: self.pc_form,
            npc_form: self.npc_form,
            significance: self.significance.clone(),
            die,
        })
    }
}

/// The kind-specific part of a sheet.
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export_to = "wicked-age/"))]
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Sheet {
    Pc { forms: PcForms },
    Npc { forms: NpcForms },
}

/// Whether a character can take part.
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export_to = "wicked-age/"))]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Status {
    Active,
    /// WA-4 / WA-8: two forms at 0; out for the rest of the chapter (not dead).
    OutOfChapter,
    /// An agreed consequence (WA-27) was the character's death.
    Dead,
}

/// A character on the table.
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export_to = "wicked-age/"))]
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Character {
    pub name: String,
    #[serde(default)]
    pub description: String,
    /// The seat that controls it: a player for a PC, the GM for an NPC.
    pub controller: Seat,
    #[serde(flatten)]
    pub sheet: Sheet,
    pub strengths: Vec<Strength>,
    /// WA-5: free text, no mechanical effect.
    pub best_interests: Vec<String>,
    pub status: Status,
}

impl Character {
    pub fn is_pc(&self) -> bool {
        matches!(self.sheet, Sheet::Pc { .. })
    }

    pub fn strength(&self, name: &str) -> Option<&Strength> {
        self.strengths.iter().find(|s| s.name == name)
    }

    /// WA-4 / WA-8: two or more forms at 0.
    pub fn has_two_forms_at_zero(&self) -> bool {
        match &self.sheet {
            Sheet::Pc { forms } => forms.zero_count() >= 2,
            Sheet::Npc { forms } => forms.zero_count() >= 2,
        }
    }

    /// The die a form currently has (for an NPC form, its larger die).
    pub fn form_dice(&self, form: FormRef) -> Option<Vec<Die>> {
        match (&self.sheet, form) {
            (Sheet::Pc { forms }, FormRef::Pc(f)) => Some(vec![forms.get(f)]),
            (Sheet::Npc { forms }, FormRef::Npc(f)) => Some(forms.get(f).to_vec()),
            _ => None,
        }
    }

    /// WA-28 / WA-8: the form loses one size (an NPC form: both its dice). `None` if the form
    /// does not belong to this kind of sheet.
    pub fn stepped_form(&self, form: FormRef) -> Option<Vec<Die>> {
        self.form_dice(form)
            .map(|dice| dice.into_iter().map(Die::step_down).collect())
    }

    pub fn set_form(&mut self, form: FormRef, dice: &[Die]) {
        match (&mut self.sheet, form) {
            (Sheet::Pc { forms }, FormRef::Pc(f)) => {
                if let Some(d) = dice.first() {
                    forms.set(f, *d);
                }
            }
            (Sheet::Npc { forms }, FormRef::Npc(f)) => {
                if let [a, b] = dice {
                    forms.set(f, [*a, *b]);
                }
            }
            _ => {}
        }
    }
}

/// Which kind of sheet a character has.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Kind {
    Pc,
    Npc,
}

/// A sheet's forms as written: a PC's six forms or an NPC's three pairs.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum FormsSpec {
    Pc(PcForms),
    Npc(NpcForms),
}

/// A character as written in the setup: its sheet as created (WA-2, WA-6, WA-9) and the
/// sizes it has lost since (`losses`, and a strength's `die`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CharacterSpec {
    pub name: String,
    #[serde(default)]
    pub description: String,
    /// The controlling player for a PC (`"p1"`, …); NPCs are always the GM's and may omit it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seat: Option<Seat>,
    pub kind: Kind,
    /// The dice dealt at creation.
    pub forms: FormsSpec,
    #[serde(default)]
    pub strengths: Vec<StrengthSpec>,
    #[serde(default)]
    pub best_interests: Vec<String>,
    /// Sizes already lost in earlier play, applied after the creation check: one step down
    /// per entry (a campaign continuing from an earlier state).
    #[serde(default)]
    pub losses: Vec<FormRef>,
    /// `"dead"` for a character an agreed consequence killed (WA-27). Out of the chapter
    /// follows from the dice (WA-4, WA-8).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub status: Option<Status>,
}

impl CharacterSpec {
    /// The sheet as created, its kind and its forms agreeing.
    fn sheet(&self) -> Result<Sheet, RuleError> {
        match (self.kind, &self.forms) {
            (Kind::Pc, FormsSpec::Pc(forms)) => Ok(Sheet::Pc { forms: *forms }),
            (Kind::Npc, FormsSpec::Npc(forms)) => Ok(Sheet::Npc { forms: *forms }),
            (Kind::Pc, FormsSpec::Npc(_)) => Err(RuleError::setup(
                "WA-2",
                format!("{} is a PC: give its six forms", self.name),
            )),
            (Kind::Npc, FormsSpec::Pc(_)) => Err(RuleError::setup(
                "WA-6",
                format!(
                    "{} is an NPC: give its three forms as pairs of dice",
                    self.name
                ),
            )),
        }
    }

    /// Validate creation (WA-2, WA-5, WA-6, WA-9) and build the sheet: the first of
    /// [`CharacterSpec::problems`] refuses it.
    pub fn build(&self) -> Result<Character, RuleError> {
        match self.problems().into_iter().next() {
            Some(p) => Err(RuleError::setup(p.rule.unwrap_or(limits::LIMIT), p.message)),
            None => self.built(),
        }
    }

    /// Every problem of the sheet, each at its field (`name`, `description`, `forms`,
    /// `best_interests`, `strengths`, `strengths.1`, `losses`, `status`): the creation rules
    /// (WA-2, WA-5, WA-6, WA-9) and the table limits, reported together so a form can show
    /// them all at once.
    pub fn problems(&self) -> Vec<FieldError> {
        let mut out = Vec::new();
        let mut check = |field: &str, r: Result<(), RuleError>| {
            if let Err(e) = r {
                out.push(FieldError::at(field, &e));
            }
        };
        check("name", self.check_name());
        check(
            "description",
            limits::TABLE.setup_text("a description", &self.description),
        );
        check("forms", self.check_forms());
        check("best_interests", self.check_best_interests());
        check(
            "strengths",
            limits::TABLE.setup_count(
                "strengths on a sheet",
                self.strengths.len(),
                limits::MAX_STRENGTHS,
            ),
        );
        if self.strengths.len() <= limits::MAX_STRENGTHS {
            for (i, s) in self.strengths.iter().enumerate() {
                check(&format!("strengths.{i}"), s.build(&self.name).map(|_| ()));
            }
        }
        check(
            "losses",
            limits::TABLE.setup_count("losses on a sheet", self.losses.len(), limits::MAX_LOSSES),
        );
        if out.is_empty()
            && let Err(e) = self.built()
        {
            let field = match e.rule() {
                Some("WA-28") => "losses",
                Some("WA-4") => "status",
                _ => "",
            };
            out.push(FieldError::at(field, &e));
        }
        out
    }

    fn check_name(&self) -> Result<(), RuleError> {
        if self.name.trim().is_empty() {
            return Err(RuleError::setup("WA-2", "every character needs a name"));
        }
        limits::TABLE.setup_name("a character's name", &self.name)
    }

    /// The dice dealt at creation, for the kind of sheet and who controls it (WA-2, WA-6).
    fn check_forms(&self) -> Result<(), RuleError> {
        let name = &self.name;
        match (self.sheet()?, self.seat) {
            (Sheet::Pc { forms }, Some(Seat::Player(_))) if !forms.is_creation_set() => {
                Err(RuleError::setup(
                    "WA-2",
                    format!("{name}'s forms must be dealt exactly d12, d10, d8, d6, d6 and d4"),
                ))
            }
            (Sheet::Pc { .. }, Some(Seat::Player(_))) => Ok(()),
            (Sheet::Pc { .. }, _) => Err(RuleError::setup(
                "WA-2",
                format!("{name} is a PC and needs a player's seat"),
            )),
            (Sheet::Npc { forms }, None | Some(Seat::Gm)) if !forms.is_creation_set() => {
                Err(RuleError::setup(
                    "WA-6",
                    format!("{name}'s forms must be dealt the pairs d12+d8, d10+d6 and d6+d4"),
                ))
            }
            (Sheet::Npc { .. }, None | Some(Seat::Gm)) => Ok(()),
            (Sheet::Npc { .. }, Some(_)) => Err(RuleError::setup(
                "WA-6",
                format!("{name} is an NPC and is played by the GM"),
            )),
        }
    }

    /// At least two for a PC (WA-5), within the table limits.
    fn check_best_interests(&self) -> Result<(), RuleError> {
        limits::TABLE.setup_count(
            "Best Interests on a sheet",
            self.best_interests.len(),
            limits::MAX_BEST_INTERESTS,
        )?;
        for b in &self.best_interests {
            limits::TABLE.setup_text("a Best Interest", b)?;
        }
        let written = self
            .best_interests
            .iter()
            .filter(|b| !b.trim().is_empty())
            .count();
        if self.kind == Kind::Pc && written < 2 {
            return Err(RuleError::setup(
                "WA-5",
                format!("{} needs at least two Best Interests", self.name),
            ));
        }
        Ok(())
    }

    /// The character as the sheet builds it, with its losses and status.
    fn built(&self) -> Result<Character, RuleError> {
        let name = &self.name;
        self.check_forms()?;
        let sheet = self.sheet()?;
        let controller = match self.seat {
            Some(seat @ Seat::Player(_)) => seat,
            _ => Seat::Gm,
        };
        let strengths = self
            .strengths
            .iter()
            .map(|s| s.build(name))
            .collect::<Result<Vec<_>, _>>()?;
        let mut character = Character {
            name: name.clone(),
            description: self.description.clone(),
            controller,
            sheet,
            strengths,
            best_interests: self.best_interests.clone(),
            status: Status::Active,
        };
        for loss in &self.losses {
            let stepped = character.stepped_form(*loss).ok_or_else(|| {
                RuleError::setup(
                    "WA-28",
                    format!("{} is not one of {name}'s forms", loss.label()),
                )
            })?;
            character.set_form(*loss, &stepped);
        }
        character.status = match self.status {
            Some(Status::Dead) => Status::Dead,
            _ if character.has_two_forms_at_zero() => Status::OutOfChapter,
            Some(Status::OutOfChapter) => {
                return Err(RuleError::setup(
                    "WA-4",
                    format!("{name} is out of the chapter only with two forms at 0"),
                ));
            }
            _ => Status::Active,
        };
        Ok(character)
    }

    /// The setup that builds `c` as it stands: its sheet as created (one assignment of the
    /// creation dice that its dice can have come from) and the sizes lost since.
    pub fn of(c: &Character) -> CharacterSpec {
        let (kind, forms, losses) = match &c.sheet {
            Sheet::Pc { forms } => {
                let (created, losses) = pc_history(forms);
                (Kind::Pc, FormsSpec::Pc(created), losses)
            }
            Sheet::Npc { forms } => {
                let (created, losses) = npc_history(forms);
                (Kind::Npc, FormsSpec::Npc(created), losses)
            }
        };
        CharacterSpec {
            name: c.name.clone(),
            description: c.description.clone(),
            seat: (c.controller != Seat::Gm).then_some(c.controller),
            kind,
            forms,
            strengths: c
                .strengths
                .iter()
                .map(|s| StrengthSpec {
                    name: s.name.clone(),
                    description: s.description.clone(),
                    pc_form: s.pc_form,
                    npc_form: s.npc_form,
                    significance: s.significance.clone(),
                    die: (!s.significance.contains(&Significance::Potent {}) && s.die != Die::D8
                        || s.significance.contains(&Significance::Potent {}) && s.die != Die::D10)
                        .then_some(s.die),
                })
                .collect(),
            best_interests: c.best_interests.clone(),
            losses,
            status: (c.status == Status::Dead).then_some(Status::Dead),
        }
    }
}

/// Steps down the chain from `from` to `to` (WA-1), if `to` is reachable.
fn steps(from: Die, to: Die) -> Option<usize> {
    let mut d = from;
    for k in 0..=5 {
        if d == to {
            return Some(k);
        }
        d = d.step_down();
    }
    None
}

/// WA-2: a PC's dice as created (the largest creation die to the largest die now) and the
/// steps each form lost since.
fn pc_history(now: &PcForms) -> (PcForms, Vec<FormRef>) {
    let mut order: Vec<PcForm> = PcForm::ALL.to_vec();
    order.sort_by_key(|f| std::cmp::Reverse(now.get(*f)));
    let dealt = [Die::D12, Die::D10, Die::D8, Die::D6, Die::D6, Die::D4];
    let mut created = *now;
    let mut losses = Vec::new();
    for (form, die) in order.into_iter().zip(dealt) {
        created.set(form, die);
        let k = steps(die, now.get(form)).unwrap_or(0);
        losses.extend(std::iter::repeat_n(FormRef::Pc(form), k));
    }
    (created, losses)
}

/// WA-6, WA-8: an NPC's pairs as created (both dice of a form step down together) and the
/// steps each form lost since.
fn npc_history(now: &NpcForms) -> (NpcForms, Vec<FormRef>) {
    let pairs = [[Die::D12, Die::D8], [Die::D10, Die::D6], [Die::D6, Die::D4]];
    let perms = [
        [0, 1, 2],
        [0, 2, 1],
        [1, 0, 2],
        [1, 2, 0],
        [2, 0, 1],
        [2, 1, 0],
    ];
    for perm in perms {
        let mut created = *now;
        let mut losses = Vec::new();
        let fits = NpcForm::ALL.iter().zip(perm).all(|(form, i)| {
            let [a, b] = now.get(*form);
            let [x, y] = pairs[i];
            // Either die order, as a setup may write a pair either way round.
            [[x, y], [y, x]].into_iter().any(|pair| {
                let k = (0..=5).find(|k| {
                    let step = |d: Die| (0..*k).fold(d, |d, _| d.step_down());
                    [step(pair[0]), step(pair[1])] == [a, b]
                });
                if let Some(k) = k {
                    created.set(*form, pair);
                    losses.extend(std::iter::repeat_n(FormRef::Npc(*form), k));
                }
                k.is_some()
            })
        });
        if fits {
            return (created, losses);
        }
    }
    (*now, Vec::new())
}
