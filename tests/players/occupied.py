"""A player on the play protocol (m3go-player/1) that plays every move on the opponent's last
stone, an occupied point: refused, so it forfeits each game (the live match's checks,
tests/it/match_watch.rs and tests/browser/watch.rs, show those forfeits)."""
import json, sys
for line in sys.stdin:
    req = json.loads(line)
    if req.get("action") == "capabilities":
        ans = {"id": req["id"], "protocols": ["m3go-player/1"],
               "implementation": {"name": "bad", "version": "0"},
               "capabilities": {"presets": ["m3go-2020"]}}
    else:
        moves = [m for m in req["moves"] if not m.endswith("pass")]
        ans = {"id": req["id"], "move": moves[-1].split(".")[1] if moves else "pass"}
    print(json.dumps(ans, ensure_ascii=False), flush=True)
