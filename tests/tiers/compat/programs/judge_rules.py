"""The loopback judge both libraries' programs talk to: it answers by content, never by the prompts' wording.

An assessment (a conversation of one user turn) gets a fixed text. A verdict request (the conversation continued:
user, assistant, user) gets an option chosen from the judged texts in the first turn: for a direct judge "Yes" and
"Excellent" when the judged answer names Paris, else "No" and "Bad"; for a pairwise judge "Response <name>" of the
best system shown (alpha, then beta, then gamma). A rating judge's prompt (the documented standalone example's
"[Assistant's Answer]") gets "[[10]]" when the rated answer names Austin, else "[[0]]".
"""

SYSTEMS = (("Paris is the capital.", "alpha"), ("Lyon, I think.", "beta"), ("No idea.", "gamma"))


def answer(request):
    messages = request.get("messages") or [{"content": request.get("prompt", "")}]
    rated = [str(turn["content"]).split("[Assistant's Answer]", 1)[1] for turn in messages
             if "[Assistant's Answer]" in str(turn["content"])]
    if rated:
        return "[[10]]" if "austin" in rated[-1].lower() else "[[0]]"
    if len(messages) < 3:
        return "The judged text was read against the criteria."
    first, last = str(messages[0]["content"]), str(messages[-1]["content"])
    shown = [name for text, name in SYSTEMS if text in first]
    if len(shown) == 2:  # a pairwise comparison: name the better response
        return f"Response {shown[0]}"
    good = "Paris" in first
    if "Excellent" in last:
        return "Excellent" if good else "Bad"
    return "Yes" if good else "No"
