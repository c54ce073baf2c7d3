//! `/thud press button:<label>`: the console's buttons, pressed by their label as a player
//! taps them on Discord.

use super::{refused, Console};
use crate::service::{echo, Action, Actor, AnalysisAnswer, Button, Place, Reply, ServiceError};

impl Console<'_> {
    /// Presses the button labelled `label` on the last message that showed it here.
    pub(super) async fn press(
        &mut self,
        place: Place,
        actor: &Actor,
        label: &str,
    ) -> Result<Reply, ServiceError> {
        let found = self.button(place, actor, label).map(|b| b.action);
        let Some(action) = found else {
            return Err(refused(format!(
                "there is no `{}` button here",
                echo(label)
            )));
        };
        let s = self.service;
        match action {
            Action::Accept(id) => s.matches().accept(place, actor, Some(id), None).await,
            Action::Decline(id) => s.matches().decline(place, actor, Some(id)).await,
            Action::Cancel(id) => s.matches().cancel(place, actor, Some(id)).await,
            Action::AgreeEnd { match_id, proposal } => {
                s.matches()
                    .answer_end(place, actor, true, Some((match_id, proposal)))
                    .await
            }
            Action::KeepPlaying { match_id, proposal } => {
                s.matches()
                    .answer_end(place, actor, false, Some((match_id, proposal)))
                    .await
            }
            Action::ConfirmResign(id) => s.matches().resign(place, actor, Some(id)).await,
            Action::Resume(id) => s.matches().resume(place, actor, id).await,
            Action::AbortUnreachable(id) => s.matches().abort_unreachable(actor, id).await,
            Action::Rematch(id) => s.matches().rematch(place, actor, id, None).await,
            // Normally taken before dispatch (see `analysis_wanted`), which judges and prints
            // as it goes; here it says where the analysis stands.
            Action::Analyse(id) => match s.analysis().ask(place, Some(id)).await? {
                AnalysisAnswer::Report(reply) | AnalysisAnswer::UnderWay { reply, .. } => Ok(reply),
            },
            Action::JoinTournament(id) => s.tournaments().join_numbered(actor, id).await,
        }
    }

    /// The button labelled `label` (its first letters will do) that `actor` can press here:
    /// on a message only they see, else on the last message everyone sees.
    pub(super) fn button(&self, place: Place, actor: &Actor, label: &str) -> Option<&Button> {
        let wanted = label.trim().to_ascii_lowercase();
        if wanted.is_empty() {
            return None;
        }
        [Some(actor.id), None].into_iter().find_map(|owner| {
            self.buttons
                .get(&(place.channel, owner))?
                .iter()
                .find(|b| b.label.to_ascii_lowercase().starts_with(&wanted))
        })
    }
}
