"""Discover an RCP manifest, hand the model its tools, run the model's calls, print what it reads."""

import sys

from rcp import create_rcp_client, to_model_result, to_model_text
from rcp.openai import openai_tools


def main(manifest_url: str) -> None:
    client = create_rcp_client(
        # The verified user comes from your app, never from the model: userId leaves the model's schema.
        resolvers={"userId": lambda ctx, info: ctx["user_id"]},
        # The bare token; the client sends it only to the manifest's own origin (or one you trust).
        credentials=lambda request: "notes-token-123",
    )
    discovery = client.discover(manifest_url)
    tools = openai_tools(discovery)  # chat.completions.create(tools=tools, ...)
    print([tool["function"]["name"] for tool in tools])
    print(list(tools[0]["function"]["parameters"]["properties"]))  # no userId: the model cannot fill it

    # A model's tool call: a name and its arguments as JSON text.
    outcome = client.call(discovery, "list_notes", '{"tag": "home"}', {"user_id": "u-1"})
    print(to_model_text(to_model_result(outcome)))

    # A prompt-injected model tries another user's notes: refused, nothing is sent.
    spoof = client.call(discovery, "list_notes", '{"userId": "u-2"}', {"user_id": "u-1"})
    print(to_model_text(to_model_result(spoof)))


if __name__ == "__main__":
    main(sys.argv[1])
