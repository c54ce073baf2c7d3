//! Self-test of the fake Discord: a real serenity + poise bot runs against it end to end.

use crate::support::BotHttp;
use poise::serenity_prelude as serenity;
use serde_json::{json, Value};

use crate::support::fake_discord::*;
use crate::support::probe::{board_png, WAIT};

struct Data;
type Error = Box<dyn std::error::Error + Send + Sync>;
type Context<'a> = poise::Context<'a, Data, Error>;

const SQUARES: [&str; 5] = ["F1", "F5", "G7", "H2", "J15"];

/// Commands for the harness self-test
#[poise::command(
    slash_command,
    subcommands("ping", "square", "confirm", "picture"),
    subcommand_required
)]
async fn thud(_ctx: Context<'_>) -> Result<(), Error> {
    Ok(())
}

/// Check that the bot answers
#[poise::command(slash_command)]
async fn ping(ctx: Context<'_>) -> Result<(), Error> {
    ctx.send(
        poise::CreateReply::default()
            .content("Pong")
            .ephemeral(true),
    )
    .await?;
    Ok(())
}

async fn complete_square(_ctx: Context<'_>, partial: &str) -> serenity::CreateAutocompleteResponse {
    let typed = partial.to_uppercase();
    let choices = SQUARES
        .iter()
        .filter(|square| square.starts_with(&typed))
        .map(|square| serenity::AutocompleteChoice::new(*square, *square))
        .collect();
    serenity::CreateAutocompleteResponse::new().set_choices(choices)
}

/// Pick a square
#[poise::command(slash_command)]
async fn square(
    ctx: Context<'_>,
    #[description = "The square to pick"]
    #[autocomplete = "complete_square"]
    square: String,
) -> Result<(), Error> {
    ctx.say(format!("You picked {square}")).await?;
    Ok(())
}

fn confirm_button(disabled: bool) -> serenity::CreateActionRow {
    let button = serenity::CreateButton::new("confirm:1")
        .label("Confirm")
        .style(serenity::ButtonStyle::Success)
        .disabled(disabled);
    serenity::CreateActionRow::Buttons(vec![button])
}

/// Post a message with a confirm button
#[poise::command(slash_command)]
async fn confirm(ctx: Context<'_>) -> Result<(), Error> {
    ctx.send(
        poise::CreateReply::default()
            .content("Confirm the move?")
            .components(vec![confirm_button(false)]),
    )
    .await?;
    Ok(())
}

/// Post a board picture that pings only the player to move
#[poise::command(slash_command)]
async fn picture(
    ctx: Context<'_>,
    #[description = "The player to move"] player: serenity::User,
) -> Result<(), Error> {
    let content = format!("<@{}> to move against <@{}>", player.id, ctx.author().id);
    let reply = poise::CreateReply::default()
        .content(content)
        .attachment(serenity::CreateAttachment::bytes(board_png()?, "board.png"))
        .allowed_mentions(serenity::CreateAllowedMentions::new().users([player.id]));
    ctx.send(reply).await?;
    Ok(())
}

async fn on_event(
    framework: poise::FrameworkContext<'_, Data, Error>,
    event: &serenity::FullEvent,
) -> Result<(), Error> {
    if let serenity::FullEvent::InteractionCreate {
        interaction: serenity::Interaction::Component(click),
    } = event
    {
        if click.data.custom_id == "confirm:1" {
            let update = serenity::CreateInteractionResponseMessage::new()
                .content(format!("Confirmed by <@{}>", click.user.id))
                .components(vec![confirm_button(true)]);
            click
                .create_response(
                    framework.serenity_context,
                    serenity::CreateInteractionResponse::UpdateMessage(update),
                )
                .await?;
        }
    }
    Ok(())
}

#[tokio::test]
async fn poise_bot_runs_against_the_fake() {
    let logs = capture_logs();
    let fake = FakeDiscord::start().await;
    let framework = poise::Framework::builder()
        .options(poise::FrameworkOptions {
            commands: vec![thud()],
            event_handler: |framework, event| Box::pin(on_event(framework, event)),
            ..Default::default()
        })
        .setup(|ctx, _ready, framework| {
            Box::pin(async move {
                let guild = serenity::GuildId::new(GUILD_ID);
                poise::builtins::register_in_guild(ctx, &framework.options().commands, guild)
                    .await?;
                Ok(Data)
            })
        })
        .build();
    let intents = serenity::GatewayIntents::non_privileged();
    let mut client = serenity::ClientBuilder::new_with_http(fake.http(), intents)
        .framework(framework)
        .await
        .expect("client built");
    let shard_manager = client.shard_manager.clone();
    let bot = tokio::spawn(async move { client.start().await });

    // Registration: one /thud command with its four subcommands, all described.
    let registration = fake
        .wait_for(
            |r| {
                r.method == "PUT"
                    && r.path
                        == format!("/applications/{APPLICATION_ID}/guilds/{GUILD_ID}/commands")
            },
            WAIT,
        )
        .await
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(registration.status, 200);
    let startup: Vec<(String, String)> = fake
        .requests()
        .iter()
        .take(3)
        .map(|r| (r.method.clone(), r.path.clone()))
        .collect();
    let expected = [
        ("GET", "/gateway".to_string()),
        ("GET", "/oauth2/applications/@me".to_string()),
        (
            "PUT",
            format!("/applications/{APPLICATION_ID}/guilds/{GUILD_ID}/commands"),
        ),
    ];
    assert_eq!(
        startup,
        expected.map(|(m, p)| (m.to_string(), p)),
        "serenity asks for the gateway, poise for the owners, then setup registers"
    );
    let commands = registration.json().as_array().expect("a command list");
    assert_eq!(commands.len(), 1);
    assert_eq!(commands[0]["name"], "thud");
    assert_eq!(
        commands[0]["description"],
        "Commands for the harness self-test"
    );
    let subcommands = commands[0]["options"].as_array().expect("subcommands");
    let names: Vec<&str> = subcommands
        .iter()
        .filter_map(|o| o["name"].as_str())
        .collect();
    assert_eq!(names, ["ping", "square", "confirm", "picture"]);
    assert!(subcommands
        .iter()
        .all(|o| o["type"] == 1 && o["description"].as_str().is_some_and(|d| !d.is_empty())));
    let square_option = &subcommands[1]["options"][0];
    assert_eq!(
        (
            square_option["type"].clone(),
            square_option["autocomplete"].clone(),
            square_option["required"].clone()
        ),
        (json!(3), json!(true), json!(true))
    );
    assert_eq!(
        fake.identify().expect("IDENTIFY received")["intents"],
        intents.bits()
    );

    // An ephemeral reply.
    let ping = fake
        .run_command(&SlashCommand::thud("ping").by(BOB))
        .await
        .expect("delivered");
    let reply = fake
        .response_to(&ping, WAIT)
        .await
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(reply.interaction_response_type(), Some(4));
    assert!(reply.is_ephemeral());
    assert_eq!(reply.content(), Some("Pong"));
    assert_eq!(reply.status, 204);

    // Autocomplete, then the finished command.
    let typing = fake
        .run_command(&SlashCommand::thud("square").autocomplete("square", "f"))
        .await
        .expect("delivered");
    let suggestions = fake
        .response_to(&typing, WAIT)
        .await
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(suggestions.interaction_response_type(), Some(8));
    let offered: Vec<Value> = suggestions
        .choices()
        .iter()
        .map(|c| c["value"].clone())
        .collect();
    assert_eq!(offered, [json!("F1"), json!("F5")]);
    let picked = fake
        .run_command(&SlashCommand::thud("square").option("square", "F5"))
        .await
        .expect("delivered");
    let said = fake
        .response_to(&picked, WAIT)
        .await
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(
        (
            said.interaction_response_type(),
            said.content(),
            said.is_ephemeral()
        ),
        (Some(4), Some("You picked F5"), false)
    );

    // A button, clicked by someone else, answered by updating the message.
    let ask = fake
        .run_command(&SlashCommand::thud("confirm"))
        .await
        .expect("delivered");
    let question = fake
        .response_to(&ask, WAIT)
        .await
        .unwrap_or_else(|e| panic!("{e}"));
    let buttons = question.buttons();
    assert_eq!(buttons.len(), 1);
    assert_eq!(
        (buttons[0]["custom_id"].clone(), buttons[0]["style"].clone()),
        (json!("confirm:1"), json!(3))
    );
    let message = fake
        .original_response(&ask)
        .expect("the question is stored");
    let message_id = snowflake(&message["id"]).expect("an id");
    let click = fake
        .click_button(CAROL, message_id, "confirm:1")
        .await
        .expect("delivered");
    let update = fake
        .response_to(&click, WAIT)
        .await
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(update.interaction_response_type(), Some(7));
    assert_eq!(
        update.content(),
        Some(format!("Confirmed by <@{}>", CAROL.id).as_str())
    );
    assert_eq!(update.buttons()[0]["disabled"], true);
    let stored = fake.message(message_id).expect("still stored");
    assert_eq!(stored["content"], format!("Confirmed by <@{}>", CAROL.id));
    assert!(
        matches!(
            fake.click_button(ALICE, message_id, "confirm:1").await,
            Err(FakeError::Rejected(_))
        ),
        "a disabled button cannot be clicked"
    );

    // A picture that pings only the player to move.
    let show = fake
        .run_command(
            &SlashCommand::thud("picture")
                .option("player", ALICE)
                .by(BOB),
        )
        .await
        .expect("delivered");
    let posted = fake
        .response_to(&show, WAIT)
        .await
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(posted.interaction_response_type(), Some(4));
    assert_eq!(posted.attachments().len(), 1);
    let file = &posted.attachments()[0];
    assert_eq!(
        (
            file.field.as_str(),
            file.filename.as_str(),
            file.content_type.as_deref()
        ),
        ("files[0]", "board.png", Some("image/png"))
    );
    let picture = image::load_from_memory_with_format(&file.data, image::ImageFormat::Png)
        .expect("the attachment is a PNG");
    assert_eq!((picture.width(), picture.height()), (8, 6));
    assert_eq!(
        posted.allowed_mentions(),
        Some(&json!({"parse": [], "users": [ALICE.id.to_string()], "roles": []}))
    );
    assert_eq!(
        mentioned_users(posted.content().unwrap_or("")),
        vec![ALICE.id, BOB.id]
    );
    assert_eq!(posted.pinged_users(), vec![ALICE.id]);
    let shown = fake.original_response(&show).expect("stored");
    assert_eq!(
        (
            shown["attachments"][0]["width"].clone(),
            shown["attachments"][0]["height"].clone()
        ),
        (json!(8), json!(6))
    );

    assert_eq!(fake.frames_serenity_cannot_read(), Vec::<String>::new());
    assert!(
        fake.unexpected_requests().is_empty(),
        "unexpected calls: {:?}",
        fake.unexpected_requests()
    );
    assert!(
        fake.failed_requests().is_empty(),
        "refused calls: {:?}",
        fake.failed_requests()
            .iter()
            .map(RecordedRequest::summary)
            .collect::<Vec<_>>()
    );

    // Clean shutdown: the shard closes the gateway and `start` returns.
    shard_manager.shutdown_all().await;
    let finished = tokio::time::timeout(WAIT, bot)
        .await
        .expect("the client stops");
    finished
        .expect("the client task did not panic")
        .expect("the client stopped cleanly");
    fake.wait_until_disconnected(WAIT)
        .await
        .unwrap_or_else(|e| panic!("{e}"));
    assert!(
        logs.lines().is_empty(),
        "serenity or poise complained:\n{}",
        logs.lines().join("\n")
    );
}
