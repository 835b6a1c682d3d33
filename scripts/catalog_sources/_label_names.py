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

# ibm/claim_stance `claim_stance_topic`: the 55 debate topics its labels name
CLAIM_STANCE_TOPICS = [
    "advertising", "all nations a right to nuclear weapons", "a mandatory retirement age", "american jobs act",
    "asean", "atheism", "austerity measures", "barrier methods of contraception", "blasphemy", "boxing", "bribery",
    "burning the stars and stripes", "children", "collective bargaining rights claimed by trades unions",
    "congressional earmarks",
    "democratic governments should require voters to present photo identification at the polling station",
    "democratization", "endangered species", "enforce term limits on the legislative branch of government",
    "freedom of speech", "fund education using a voucher scheme", "gambling",
    "governments should choose open source software", "high rises for housing", "holocaust denial",
    "housewives should be paid for their work", "hydroelectric dams",
    "implement playoffs in collegiate level american football", "intellectual property rights",
    "israel's 2008-2009 military operations against gaza", "leaking of military documents", "multiculturalism",
    "national service", "only teach abstinence for sex education in schools", "open primaries",
    "partial birth abortions", "physical education", "poor communities", "raising the school leaving age to 18",
    "re-engage with myanmar", "the blockade of gaza", "the creation of private universities in the uk",
    "the free market", "the growing of tobacco", "the keystone xl pipeline", "the monarchy",
    "the one-child policy of the republic of china", "the right to asylum", "the right to bear arms",
    "the sale of violent video games to minors", "the use of affirmative action",
    "the use of performance enhancing drugs in professional sports",
    "the use of truth and reconciliation commissions", "wind power", "year round schooling",
]

# ibm/argument_quality_ranking_30k `argument_topic`: the 71 debate topics its labels name
ARGUMENT_TOPICS = [
    "affirmative action", "algorithmic trading", "assisted suicide", "atheism", "austerity regime",
    "blockade of the gaza strip", "cancel pride parades", "cannabis", "capital punishment", "collectivism",
    "compulsory voting", "cosmetic surgery", "cosmetic surgery for minors", "embryonic stem cell research",
    "entrapment", "executive compensation", "factory farming", "fast food", "fight urbanization", "flag burning",
    "foster care", "gender-neutral language", "guantanamo bay detention camp", "holocaust denial", "homeopathy",
    "homeschooling", "human cloning", "intellectual property rights", "intelligence tests", "journalism",
    "judicial activism", "libertarianism", "marriage", "missionary work", "multi-party system", "naturopathy",
    "organ trade", "payday loans", "polygamy", "private military companies", "prostitution", "racial profiling",
    "retirement", "safe spaces", "school prayer", "sex selection", "social media", "space exploration",
    "stay-at-home dads", "student loans", "surrogacy", "targeted killing", "telemarketing", "television",
    "the abolition of nuclear weapons", "the church of scientology", "the development of autonomous cars",
    "the olympic games", "the right to keep and bear arms", "the three-strikes laws", "the use of child actors",
    "the use of economic sanctions", "the use of public defenders", "the use of school uniform",
    "the vow of celibacy", "vocational education", "whaling", "wikipedia", "women in combat",
    "zero-tolerance policy in schools", "zoos",
]
