import json, time, urllib.request, sys
B = "http://127.0.0.1:18555"
def call(m, path, tok=None, body=None):
    data = json.dumps(body).encode() if body is not None else None
    r = urllib.request.Request(B + path, data=data, method=m)
    if data is not None: r.add_header("content-type", "application/json")
    if tok: r.add_header("authorization", "Bearer " + tok)
    r.add_header("origin", B)
    try:
        with urllib.request.urlopen(r) as f: return json.loads(f.read() or b"null")
    except urllib.error.HTTPError as e:
        return {"_err": e.code, "_body": e.read().decode()}
def first_legal(tid, tok):
    v = call("GET", f"/api/tables/{tid}", tok)
    if v.get("status") == "finished": return False
    legal = v.get("legal_actions") or []
    a = next((a for a in legal if a.get("type") != "call_uno"), legal[0] if legal else None)
    if a is not None: call("POST", f"/api/tables/{tid}/actions", tok, {"action": a, "version": v["version"]})
    else: time.sleep(0.02)
    return True
t = call("POST", "/api/tables", None, {"seed": 7, "seats": [{"kind": "bot", "bot": "heuristic"}, {"kind": "bot", "bot": "random"}, {"kind": "bot", "bot": "random"}]}); print(t if "_err" in t else t["id"])
bots = t["id"]
t = call("POST", "/api/tables", None, {"name": "Cy", "seats": [{"kind": "human"}, {"kind": "bot", "bot": "random"}]}); print(t.get("_err"), t.get("id"))
cy, cyt = t["id"], t["token"]
for _ in range(5000):
    if not first_legal(cy, cyt): break
t = call("POST", "/api/tables", None, {"name": "Ann", "seed": 3, "seats": [{"kind": "human"}, {"kind": "bot", "bot": "random"}, {"kind": "human"}]})
ab, ann = t["id"], t["token"]
j = call("POST", f"/api/tables/{ab}/join", None, {"name": "Bob"}); print("join", j.get("_err"), "token" in j)
for _ in range(50):
    v = call("GET", f"/api/tables/{ab}", ann)
    if v.get("legal_actions"):
        first_legal(ab, ann); break
    time.sleep(0.05)
time.sleep(0.5)
d = call("POST", "/api/duel", None, {}); print("duel", d.get("_err"), str(d)[:100])
for _ in range(400):
    v = call("GET", f"/api/tables/{bots}")
    if v.get("status") == "finished": break
    time.sleep(0.05)
print("bots", call("GET", f"/api/tables/{bots}").get("status"), "cy", call("GET", f"/api/tables/{cy}", cyt).get("status"))
