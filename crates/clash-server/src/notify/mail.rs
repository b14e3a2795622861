//! Email through the host's relay, only to addresses whose owners asked for it (see
//! [`super::consent`]): the one confirmation message, and news once confirmed. Every message is
//! plain text, carries a one-click unsubscribe (`List-Unsubscribe` with an `https` link and
//! `List-Unsubscribe-Post: List-Unsubscribe=One-Click`, RFC 8058; the relay signs them with
//! DKIM), and has a subject in the server's words alone.

use lettre::AsyncTransport;
use lettre::message::header::{ContentType, Header, HeaderName, HeaderValue};

/// What a header that does not parse says (the form lettre's `Header` asks for).
type BoxError = Box<dyn std::error::Error + Send + Sync>;

use super::consent::{self, Consent};
use super::deliver::{Failure, Outbox, failure};
use super::message::Message;
use super::now::now_ms;
use super::target::Target;
use crate::http::routes;

/// `List-Unsubscribe: <https://…>`.
#[derive(Clone)]
struct ListUnsubscribe(String);

impl Header for ListUnsubscribe {
    fn name() -> HeaderName {
        HeaderName::new_from_ascii_str("List-Unsubscribe")
    }
    fn parse(s: &str) -> Result<Self, BoxError> {
        Ok(ListUnsubscribe(s.trim_matches(['<', '>']).to_string()))
    }
    fn display(&self) -> HeaderValue {
        HeaderValue::new(Self::name(), format!("<{}>", self.0))
    }
}

/// `List-Unsubscribe-Post: List-Unsubscribe=One-Click`.
#[derive(Clone)]
struct OneClick;

impl Header for OneClick {
    fn name() -> HeaderName {
        HeaderName::new_from_ascii_str("List-Unsubscribe-Post")
    }
    fn parse(_: &str) -> Result<Self, BoxError> {
        Ok(OneClick)
    }
    fn display(&self) -> HeaderValue {
        HeaderValue::new(Self::name(), "List-Unsubscribe=One-Click".into())
    }
}

/// The server's links for the address with `token`.
pub fn confirm_link(base: &str, token: &str) -> String {
    format!("{base}{}", routes::MAIL_CONFIRM_PAGE.at([token]))
}

pub fn unsubscribe_link(base: &str, token: &str) -> String {
    format!("{base}{}", routes::MAIL_UNSUBSCRIBE_PAGE.at([token]))
}

/// The confirmation an address receives before anything else.
fn confirmation_text(base: &str, token: &str) -> String {
    format!(
        "Someone at a Clash table on {base}/ asked this server to send news of their game to this address.\n\n\
         If it was you, confirm it here (one button on the page):\n{}\n\n\
         If it was not you, do nothing: this server sends this address nothing more. To be sure it never writes here \
         again, not even to ask, follow this link:\n{}\n",
        confirm_link(base, token),
        unsubscribe_link(base, token)
    )
}

impl Outbox {
    /// One message to `to` with `subject` and `body`, with the unsubscribe headers and link;
    /// counted against the address's day.
    async fn send_mail(
        &self,
        to: &str,
        token: &str,
        subject: &str,
        body: String,
    ) -> Result<(), Failure> {
        let (Some(mailer), Some(smtp), Some(base)) = (
            &self.mailer,
            &self.settings.smtp,
            self.settings.public_url.as_deref(),
        ) else {
            return Err(failure(
                "this server has no SMTP relay or public address now",
                false,
            ));
        };
        let stored = |_| failure("the address's record could not be read", true);
        let per_day = self.settings.mail_per_day;
        if !consent::count(&self.store, to, now_ms(), per_day)
            .await
            .map_err(stored)?
        {
            return Err(failure(
                format!("this address has had its {per_day} messages from this server today"),
                false,
            ));
        }
        let bad = |what: &str| failure(format!("the email could not be made: {what}"), false);
        let unsubscribe = unsubscribe_link(base, token);
        let body =
            format!("{body}\n\n--\nTo receive no more mail from this server: {unsubscribe}\n");
        let email = lettre::Message::builder()
            .from(
                smtp.from
                    .parse()
                    .map_err(|_| bad("the server's sender address"))?,
            )
            .to(to.parse().map_err(|_| bad("the address"))?)
            .subject(subject)
            .header(ContentType::TEXT_PLAIN)
            .header(ListUnsubscribe(unsubscribe))
            .header(OneClick)
            .body(body)
            .map_err(|_| bad("its text"))?;
        mailer
            .send(email)
            .await
            .map(|_| ())
            .map_err(|e| match e.is_permanent() {
                true => failure("the mail relay refused it", false),
                false => failure("the mail relay could not take it now", true),
            })
    }

    /// Ask `address`'s owner to confirm it, with the token [`consent::ask`] claimed for the
    /// caller; a confirmation that could not be sent is due again at once.
    pub async fn confirmation(&self, address: &str, token: &str) -> Result<(), Failure> {
        let base = self.settings.public_url.clone().unwrap_or_default();
        let text = confirmation_text(&base, token);
        let sent = self
            .send_mail(address, token, "Clash: please confirm this address", text)
            .await;
        if sent.is_err() {
            let _ = consent::unsent(&self.store, address).await;
        }
        sent
    }

    /// Where `address` stands, sending its confirmation when one is due.
    async fn ask_consent(&self, address: &str) -> Result<Consent, Failure> {
        let stored = |_| failure("the address's record could not be read", true);
        let consent = consent::ask(&self.store, address, now_ms())
            .await
            .map_err(stored)?;
        if let Consent::Ask { token } = &consent {
            self.confirmation(address, token).await?;
        }
        Ok(consent)
    }

    /// The news of `message` to an email target, if its owner confirmed the address.
    pub(super) async fn mail(&self, target: &Target, message: &Message) -> Result<(), Failure> {
        match self.ask_consent(&target.address).await? {
            Consent::Confirmed { token } => {
                let base = self.settings.public_url.as_deref();
                self.send_mail(
                    &target.address,
                    &token,
                    &message.subject(),
                    message.text(base),
                )
                .await
            }
            Consent::Refused => Err(failure(
                "not sent: this address's owner asked this server for no more mail",
                false,
            )),
            Consent::Waiting | Consent::Ask { .. } => Err(failure(
                "not sent: waiting for the address's owner to confirm it (a message asking them was sent there)",
                false,
            )),
        }
    }
}
