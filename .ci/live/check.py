"""Check an executed notebook: no error outputs, no panic lines, and list
the live measurement's progress outcome ("measured <group> in N s") and the
per-cell times (nbclient's record_timing).

Usage: python3 check.py EXECUTED.ipynb
"""
import datetime
import json
import re
import sys

nb = json.load(open(sys.argv[1]))
fail = re.compile(r"(?m)^(exit status \d+|panic: |fatal error: |\[ERROR\])")
problems, measured, cells = [], [], []
pngs = 0


def ts(s):
    return datetime.datetime.fromisoformat(s.replace("Z", "+00:00"))


for c in nb["cells"]:
    if c["cell_type"] != "code":
        continue
    ex = c.get("metadata", {}).get("execution", {})
    if "iopub.execute_input" in ex and "shell.execute_reply" in ex:
        cells.append(round((ts(ex["shell.execute_reply"]) - ts(ex["iopub.execute_input"])).total_seconds(), 1))
    for o in c.get("outputs", []):
        if o["output_type"] == "error":
            problems.append(f"cell {c.get('id')}: error {o.get('ename')}: {o.get('evalue', '')[:300]}")
        if o["output_type"] == "stream" and fail.search("".join(o["text"])):
            problems.append(f"cell {c.get('id')}: {''.join(o['text'])[:300]}")
        data = o.get("data", {})
        pngs += "image/png" in data
        h = "".join(data.get("text/html", ""))
        for m in re.finditer(r"(measured|measuring) <b>(\w+)</b>[^<]*", h):
            measured.append(re.sub(r"<[^>]+>", "", m.group(0)))
print(json.dumps({"notebook": sys.argv[1], "problems": problems, "progress": measured,
                  "cell_seconds": cells, "images": pngs}))
sys.exit(1 if problems else 0)
