"""``egmem serve`` and ``egmem backfill``: run a platform front end over one memory service."""

from __future__ import annotations

import argparse
import asyncio
import logging
from datetime import datetime

import discord

from bot.app import build
from bot.scheduler import build_scheduler
from bot.settings import Settings
from memory.errors import ConfigError
from memory.ports import OperatorService

logger = logging.getLogger(__name__)


# egmem's own loggers: they log ids and counts, never message text.
SERVICE_LOGGERS = ("bot", "memory", "adapters")
SLACK_COMMIT_WINDOW_S = 1.0
DEFAULT_PORTS = {"slack": 3000, "web": 8080}


def service_logging() -> None:
    """INFO for egmem's own loggers only. The root logger keeps its level (WARNING): some
    libraries log whole request bodies at INFO (slack-bolt on a failed signature check),
    and they take their level from the root logger's when they are built."""
    for name in SERVICE_LOGGERS:
        logging.getLogger(name).setLevel(logging.INFO)


def serve(settings: Settings, args: argparse.Namespace) -> int:
    service_logging()
    port = listen_port(args)
    # The web view only reads: it runs beside the bots without the writer lock.
    # Slack events arriving within a second of each other are committed in one run.
    eg: OperatorService = build(settings, read_only=args.platform == "web",
               command=f"egmem serve {args.platform}",
               commit_window_s=SLACK_COMMIT_WINDOW_S if args.platform == "slack" else 0.0)
    try:
        if args.platform == "web":
            from adapters.web import serve_web

            serve_web(eg, host=args.host, port=port or 0, token=settings.web_token)
        elif args.platform == "slack":
            _serve_slack(eg, settings, socket=args.socket or not args.http,
                         port=port or 0, host=args.host)
        else:
            _serve_discord(eg, settings)
    except KeyboardInterrupt:
        pass
    finally:
        eg.close()
    return 0


def listen_port(args: argparse.Namespace) -> int | None:
    """``--port`` as given, else the front end's default (Slack events 3000, web view
    8080); none for Discord, which listens on no port (``--port`` is refused there)."""
    if args.platform not in DEFAULT_PORTS:
        if args.port is not None:
            raise ConfigError(f"egmem serve {args.platform} listens on no port; drop --port")
        return None
    return int(args.port) if args.port is not None else DEFAULT_PORTS[args.platform]


def _serve_slack(eg: OperatorService, settings: Settings, *, socket: bool, port: int,
                 host: str) -> None:
    from adapters.slack.app import serve_slack, web_client
    from adapters.slack.backfill import reconcile_recent

    if not settings.slack_bot_token:
        raise ConfigError("set SLACK_BOT_TOKEN (xoxb-…) to run the Slack bot")
    client = web_client(bot_token=settings.slack_bot_token, api_url=settings.slack_api_url)
    sched = build_scheduler(eg, settings, reconcile=lambda: reconcile_recent(client, eg))
    sched.start()
    try:
        # Behind a proxy in production: listen on all interfaces only when asked to.
        serve_slack(eg, settings, socket=socket, port=port, host=host, scheduler=sched)
    finally:
        sched.shutdown(wait=False)


def _serve_discord(eg: OperatorService, settings: Settings) -> None:
    from adapters.discord.bot import serve_discord

    if not settings.discord_token:
        raise ConfigError("set DISCORD_TOKEN to run the Discord bot")
    sched = build_scheduler(eg, settings)
    sched.start()
    try:
        serve_discord(eg, settings.discord_token, scheduler=sched)
    finally:
        sched.shutdown(wait=False)


def backfill(settings: Settings, args: argparse.Namespace) -> int:
    since = datetime.fromisoformat(args.since) if args.since else None
    eg: OperatorService = build(settings, command=f"egmem backfill {args.platform}")
    try:
        if args.platform == "slack":
            from adapters.slack.app import web_client
            from adapters.slack.backfill import backfill_slack

            if not settings.slack_bot_token:
                raise ConfigError("set SLACK_BOT_TOKEN (xoxb-…) to backfill from Slack")
            client = web_client(bot_token=settings.slack_bot_token,
                                api_url=settings.slack_api_url)
            report = backfill_slack(client, eg, inbox_cursor_store=eg, channel=args.channel,
                                    since=since)
            print(f"backfilled {report.events} events")
        else:
            _backfill_discord(eg, settings, channel=args.channel, since=since)
        eg.drain()
    finally:
        eg.close()
    return 0


def _backfill_discord(eg: OperatorService, settings: Settings, *, channel: str | None,
                      since: datetime | None) -> None:
    from adapters.discord.backfill import backfill_discord
    from adapters.discord.bot import default_intents

    if not settings.discord_token:
        raise ConfigError("set DISCORD_TOKEN to backfill from Discord")
    token = settings.discord_token

    class _Once(discord.Client):
        async def on_ready(self) -> None:
            try:
                report = await backfill_discord(self, eg, cursor_store=eg, channel_id=channel,
                                                since=since)
                print(f"backfilled {report}")
            finally:
                await self.close()

    asyncio.run(_run(_Once(intents=default_intents()), token))


async def _run(client: discord.Client, token: str) -> None:
    async with client:
        await client.start(token)
