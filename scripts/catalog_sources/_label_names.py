"""Label names of datasets whose cards map integer class ids to names (not a catalog source: build_catalog.py skips
files starting with "_"). Facts from the datasets' ClassLabel features, in id order."""

# clinc/clinc_oos `intent` (all configs: small, imbalanced, plus): 150 intents and "oos" (out of scope)
CLINC_OOS_INTENTS = [
    "restaurant reviews", "nutrition info", "account blocked", "oil change how", "time", "weather",
    "redeem rewards", "interest rate", "gas type", "accept reservations", "smart home", "user name",
    "report lost card", "repeat", "whisper mode", "what are your hobbies", "order", "jump start",
    "schedule meeting", "meeting schedule", "freeze account", "what song", "meaning of life",
    "restaurant reservation", "traffic", "make call", "text", "bill balance", "improve credit score",
    "change language", "no", "measurement conversion", "timer", "flip coin", "do you have pets", "balance",
    "tell joke", "last maintenance", "exchange rate", "uber", "car rental", "credit limit", "oos", "shopping list",
    "expiration date", "routing", "meal suggestion", "tire change", "todo list", "card declined", "rewards balance",
    "change accent", "vaccines", "reminder update", "food last", "change ai name", "bill due",
    "who do you work for", "share location", "international visa", "calendar", "translate", "carry on",
    "book flight", "insurance change", "todo list update", "timezone", "cancel reservation", "transactions",
    "credit score", "report fraud", "spending history", "directions", "spelling", "insurance", "what is your name",
    "reminder", "where are you from", "distance", "payday", "flight status", "find phone", "greeting", "alarm",
    "order status", "confirm reservation", "cook time", "damaged card", "reset settings", "pin change",
    "replacement card duration", "new card", "roll dice", "income", "taxes", "date", "who made you", "pto request",
    "tire pressure", "how old are you", "rollover 401k", "pto request status", "how busy", "application status",
    "recipe", "calendar update", "play music", "yes", "direct deposit", "credit limit change", "gas", "pay bill",
    "ingredients list", "lost luggage", "goodbye", "what can i ask you", "book hotel", "are you a bot", "next song",
    "change speed", "plug type", "maybe", "w2", "oil change when", "thank you", "shopping list update",
    "pto balance", "order checks", "travel alert", "fun fact", "sync device", "schedule maintenance", "apr",
    "transfer", "ingredient substitution", "calories", "current location", "international fees", "calculator",
    "definition", "next holiday", "update playlist", "mpg", "min payment", "change user name",
    "restaurant suggestion", "travel notification", "cancel", "pto used", "travel suggestion", "change volume",
]

# ucirvine/reuters21578 `topics` named in the ModApte and ModLewis splits (sorted)
REUTERS_TOPICS_MOD_APTE = [
    "acq", "alum", "austdlr", "barley", "bop", "can", "carcass", "castor-oil", "castorseed", "citruspulp", "cocoa",
    "coconut", "coconut-oil", "coffee", "copper", "copra-cake", "corn", "corn-oil", "cornglutenfeed", "cotton",
    "cotton-oil", "cottonseed", "cpi", "cpu", "crude", "cruzado", "dfl", "dkr", "dlr", "dmk", "earn", "f-cattle",
    "fishmeal", "fuel", "gas", "gnp", "gold", "grain", "groundnut", "groundnut-oil", "heat", "hog", "housing",
    "income", "instal-debt", "interest", "inventories", "ipi", "iron-steel", "jet", "jobs", "l-cattle", "lead",
    "lei", "lin-meal", "lin-oil", "linseed", "lit", "livestock", "lumber", "meal-feed", "money-fx", "money-supply",
    "naphtha", "nat-gas", "nickel", "nkr", "nzdlr", "oat", "oilseed", "orange", "palladium", "palm-oil",
    "palmkernel", "peseta", "pet-chem", "platinum", "plywood", "pork-belly", "potato", "propane", "rand",
    "rape-meal", "rape-oil", "rapeseed", "red-bean", "reserves", "retail", "rice", "ringgit", "rubber", "rupiah",
    "rye", "saudriyal", "sfr", "ship", "silver", "skr", "sorghum", "soy-meal", "soy-oil", "soybean", "stg",
    "strategic-metal", "sugar", "sun-meal", "sun-oil", "sunseed", "tapioca", "tea", "tin", "trade", "veg-oil",
    "wheat", "wool", "wpi", "yen", "zinc",
]
