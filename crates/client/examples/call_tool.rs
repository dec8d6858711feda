//! Calls one tool and answers its forms from a JSON object, without a person: the
//! smallest host. `cargo run -p mcp-elicit-client --example call_tool -- SERVER TOOL [ANSWERS]`
use mcp_elicit_client::rmcp::model::CallToolRequestParams;
use mcp_elicit_client::{
    Config, ElicitationClient, FormPolicy, ScriptedUi, SystemBrowser, UrlPolicy,
};
use mcp_elicit_core::message::Capability;

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [server, tool, rest @ ..] = args.as_slice() else {
        return Err("usage: call_tool SERVER TOOL [ANSWERS_JSON]".into());
    };
    // Forms: the answers over the schema defaults, validated before anything is sent.
    let answers = serde_json::from_str(rest.first().map_or("{}", String::as_str))?;
    let form = FormPolicy::answers_from_json(&answers)?;
    let ui = ScriptedUi::new(Capability::FORM, form, UrlPolicy::Never);
    let client = ElicitationClient::new(ui, SystemBrowser, Config::default());
    let connection = client.clone().connect(&server.parse()?).await?;
    let result = client
        .call_tool(connection.peer(), CallToolRequestParams::new(tool.clone()))
        .await?;
    println!("{}", serde_json::to_string(&result)?);
    connection.cancel().await?;
    Ok(())
}
