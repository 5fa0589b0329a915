"""Word lists for follow-ups (:mod:`assistant.understand.followup`).

General lexicons, each with the scope it is used in, in English and in the
Spanish, German and French that users type follow-ups in:

* filler — words that carry no topic of a turn (function words, request verbs,
  document nouns, courtesy): what is left of a follow-up once its cue and its
  value are taken out must be made of these;
* courtesy — a sentence made of these only ("Thank you so much, that is very
  helpful.") is not a request at all;
* cue words — the closed vocabulary the rules key on, repaired when a typo swaps
  two letters ("teh", "onyl", "remvoe");
* facet nouns — what a follow-up asks about without naming a topic of its own
  ("the cost", "safety", "los costes", "die Kosten");
* people — roles and groups whose view can be asked for ("landlords",
  "beekeepers"), and populations an answer can be narrowed to ("kids",
  "women"), told apart because an elliptic "and teachers?" after a question
  about a group's view asks for another group's view, while "and women?" narrows.
"""

from __future__ import annotations

from assistant.understand.cues import split_words

# --------------------------------------------------------------------------- filler

FILLER = frozenset(
    split_words(
        # English function words, pointers back and request verbs
        "a an the and or but so then now ok okay also too please just only what about how "
        "why who whom which when where whether me my us our i i'm i'd i'll we you your it its "
        "that that's this those these them they their there here any some few "
        "stuff things thing docs documents document articles article sources source results "
        "result pages page ones one can could would will might may must shall should "
        "show showing shown give giving find finding get getting want wanted need like "
        "prefer preferably let's lets let see seeing is are was were be been being do does did "
        "doing done have has had of in on for from to with by as at into onto bit part aspect "
        "side thanks thank pls plz yeah yes no not nothing anything something everything "
        "everyone anyone well hmm right restrict restricting restricted limit limiting "
        "include including provide providing present presenting make making answer material "
        "materials manner suitable keep keeping set matter confine confining form way "
        "version stick sticking level possible possibly perhaps maybe kindly if mind ask put "
        "use using available select selecting written write writing aimed aim pitched pitch "
        "explain explained themselves itself himself herself really actually though anyway "
        "again instead rather still even don't dont do not isn't aren't wasn't only "
        "simply simple kind nice great bit little lot lots much many more most "
        "sure okay alright cool fine info information please thx ta else other others "
        "instead mainly mostly especially particularly specifically exclusively solely "
        "stuff topic issue question subject matter case point points angle "
        # Spanish
        "y o pero solo sólo solamente únicamente unicamente por favor gracias el la los las "
        "lo un una unos unas de del al en con para que qué me nos también tambien ahora "
        "esto eso este esta ese esa sobre fuentes fuente artículos articulos documentos "
        "resultados quiero quisiera puedes podrías podrias dame muéstrame muestrame "
        "hay existe existen "
        # German
        "und oder aber nur bitte danke die der das den dem des ein eine einen einem einer mit "
        "für fur von zu zum zur im in auf auch jetzt mal dazu davon darüber daruber noch "
        "quellen quelle artikel dokumente ergebnisse zeig zeige mir gib kannst könntest "
        "kontest bitte doch ja es gibt "
        # French
        "et ou mais seulement uniquement juste s'il vous plaît plait merci le la les un une "
        "des du de en avec pour par que qu' aussi maintenant svp ça ca cela ceci ce cette "
        "sources articles documents résultats resultats montre montrez donne donnez moi "
        "peux pouvez pourriez voudrais "
        # Italian
        "e o ma solo soltanto per favore grazie il lo la i gli le un una uno di del della "
        "dei delle degli in con per che anche ora adesso questo questa quello quella fonti "
        "fonte articoli documenti risultati testi voglio vorrei puoi potresti mostra mostrami "
        "dammi ci ne "
        # Portuguese
        "e ou mas só somente apenas por favor obrigado obrigada o a os as um uma de do da "
        "dos das em no na nos nas com para que também agora isso isto este esta esse essa "
        "fontes fonte artigos documentos resultados textos quero queria podes pode poderia "
        "mostra mostre me "
        # German and French document nouns
        "texte text textes "
        # Dutch
        "alleen graag het een van ook bronnen artikelen documenten resultaten alsjeblieft "
        "alstublieft bedankt "
        # spoken fillers (dictated turns)
        "um uh uhm erm er yeah"
    )
)

# words of a sentence that only thanks or acknowledges ("Wonderful, thanks again.")
COURTESY = frozenset(
    split_words(
        "thanks thank you so much very that that's is was this it really helpful useful "
        "great wonderful splendid perfect lovely brilliant excellent fantastic nice cool "
        "kind of for clarifying again appreciated appreciate cheers awesome ok okay alright "
        "sure got understood interesting good fine amazing helps a lot many thx ty "
        "gracias muchas muy bien perfecto genial vale merci beaucoup parfait super très "
        "danke schön vielen dank toll prima gut hello hi hey dear trouble bother afraid "
        "sorry grateful moment chance whenever convenient able kindly ever grazie mille "
        "obrigado obrigada muito"
    )
)
# a reaction to the answer before the request ("Love this.", "Ooh, fascinating!", "I see.")
REACTION = COURTESY | frozenset(
    split_words(
        "love loved i i'm im fascinating wow ooh oh ah aha ha haha neat makes sense fair "
        "enough see summary answer overview breakdown clear"
    )
)

# why a facet is dropped ("the accessibility question is a separate matter, so feel free
# to leave it aside")
DROP_REASONS = frozenset(
    split_words(
        "separate different irrelevant relevant needed necessary important useful matter "
        "feel free tangent off-topic distraction read enough heard seen plenty covered "
        "i've we've already"
    )
)

# pronouns and determiners that point back at the previous answer or topic
POINTERS = frozenset(
    split_words(
        "that it its this these those them their there such same eso esto ello "
        "dies dazu davon darüber daran ça cela ceci"
    )
)

# --------------------------------------------------------------------------- cue words

# the closed vocabulary the rules key on: a word one swap of two adjacent letters away
# from one of these ("teh", "onyl", "shwo", "remvoe", "explian", "thnik") is that word
CUE_WORDS = frozenset(
    split_words(
        "what the only show more remove explain think about please source sources other "
        "side against compare drop just view views say says those their there with delete "
        "ignore forget skip people thanks thank spanish english german french italian "
        "reference references remove why where which does perspective opinion police "
        "arguments argument should could would going keep and articles beginners beginner"
    )
)
# informal spellings of cue words
SLANG = {
    "wat": "what",
    "wht": "what",
    "wy": "why",
    "whats": "what's",
    "moar": "more",
    "u": "you",
    "ur": "your",
    "abt": "about",
    "bout": "about",
    "gimme": "give me",
    "lemme": "let me",
    "plz": "please",
    "pls": "please",
    "shud": "should",
    "cud": "could",
    "wud": "would",
    "thx": "thanks",
    "tho": "though",
    "nvm": "never mind",
    "jst": "just",
    "smth": "something",
    "sth": "something",
    "ppl": "people",
    "yeet": "drop",
    "wanna": "want to",
    "onl": "only",
}

# --------------------------------------------------------------------------- facets

# facets a follow-up asks about without naming a topic of its own ("what about the cost?");
# nouns that are often topics themselves ("sugar", "salt", "oil") are not facets
FACET_NOUNS = frozenset(
    split_words(
        "cost costs price prices pricing money budget expense expenses economy economics "
        "economic jobs employment wages pay safety risk risks health healthcare environment "
        "environmental climate emissions pollution privacy security freedom rights ethics "
        "ethical morality law legality legal regulation effect effects impact impacts outcome "
        "outcomes results performance quality time times speed efficiency productivity "
        "wellbeing well-being mental stress history evidence data research studies science "
        "public opinion politics political education learning grades crime violence equality "
        "inequality fairness access accessibility availability maintenance durability "
        "reliability taste flavour flavor nutrition calories long-term short-term future "
        "taxpayers government funding noise traffic congestion accidents tourism culture "
        "identity community innovation competition side-effects effectiveness "
        "cost-effectiveness waste welfare service socialization socialisation morale burnout "
        "wellness recycling enforcement compliance benefits harms dangers consequences "
        "implications feasibility practicality logistics infrastructure sustainability "
        "affordability convenience comfort attendance motivation behaviour behavior "
        "sleep anxiety depression addiction obesity diet exercise fitness development "
        "growth inflation taxes tax revenue debt unemployment poverty wildlife biodiversity "
        "energy water land housing rent transport "
        # what debates are argued about, in general
        "bullying harassment discrimination racism sexism abuse corruption fraud "
        "surveillance misinformation disinformation radiation storage disposal levels rates "
        "transparency accountability liability insurance dependency withdrawal overdose "
        "mortality deaths injuries casualties survival recovery recidivism deterrence "
        "side-effect reputation trust morale wages salaries pensions savings subsidies "
        "jobs-market demand supply usage adoption uptake scalability range "
        "lifespan longevity carbon footprint accuracy bias fairness "
        "consent autonomy dignity freedom-of-speech censorship terrorism "
        "integration isolation loneliness attainment literacy "
        "numeracy creativity concentration focus attention memory "
        # Spanish, German, French
        "coste costes costo costos precio precios seguridad salud empleo empleos "
        "medioambiente ambiente impacto efectos riesgos privacidad calidad ruido comercio "
        "kosten preis preise sicherheit gesundheit umwelt arbeitsplätze datenschutz "
        "auswirkungen risiken qualität lärm rechte rechten schutz "
        "coût coûts prix sécurité santé emploi emplois environnement impact effets "
        "risques confidentialité qualité bruit"
    )
)

# --------------------------------------------------------------------------- people

# roles and stakeholder groups: whose view a follow-up can ask for
ROLES = frozenset(
    split_words(
        "teachers teacher parents parent economists doctors doctor nurses nurse scientists "
        "experts expert students student farmers farmer workers employees employers "
        "managers owners landlords landlord tenants renters voters citizens residents "
        "locals neighbours neighbors taxpayers consumers customers users patients "
        "athletes players coaches fans police officers soldiers veterans judges lawyers "
        "politicians lawmakers legislators regulators officials activists campaigners "
        "unions union employers retailers shopkeepers businesses companies investors "
        "shareholders bankers entrepreneurs engineers developers designers artists "
        "musicians writers authors journalists editors critics historians philosophers "
        "ethicists priests clergy religious leaders drivers cyclists pedestrians "
        "commuters travellers travelers tourists pilots scientists researchers academics "
        "professors principals headteachers librarians pharmacists dentists vets "
        "veterinarians surgeons psychiatrists psychologists therapists counsellors "
        "counselors paramedics firefighters caregivers carers midwives dietitians "
        "dietitians nutritionists trainers coaches installers builders plumbers "
        "electricians mechanics waiters waitresses servers cashiers chefs cooks bakers "
        "fishermen fishers hunters beekeepers gardeners growers breeders ranchers miners "
        "diplomats ambassadors governments government industry insiders manufacturers "
        "suppliers distributors landowners homeowners recruiters jewellers jewelers "
        "illustrators photographers actors directors producers broadcasters publishers "
        "supermarkets banks charities ngos experts specialists clinicians epidemiologists "
        "economist scientist doctor "
        # Spanish, German, French
        "médicos medicos profesores maestros padres economistas científicos cientificos "
        "expertos agricultores trabajadores empresarios comerciantes vecinos psicólogos "
        "psicologos abogados políticos ärzte aerzte lehrer eltern ökonomen oekonomen "
        "wissenschaftler experten landwirte bauern arbeiter unternehmer händler anwohner "
        "psychologen anwälte politiker médecins medecins professeurs enseignants "
        "économistes economistes scientifiques experts agriculteurs travailleurs "
        "commerçants commercants habitants psychologues avocats politiques"
    )
)
# people in general: the subject of a side ("why do people oppose it?"), not a group's view
ANYONE = frozenset(
    split_words(
        "people folks folk anyone anybody someone somebody everyone everybody others many "
        "they those we you persons gente leute gens"
    )
)
# endings that make a word a role: "marine biologists", "beekeepers", "policymakers"
ROLE_ENDINGS = (
    "ists",
    "ians",
    "ologists",
    "keepers",
    "owners",
    "makers",
    "holders",
    "goers",
    "workers",
    "users",
    "drivers",
    "riders",
    "payers",
    "seekers",
    "buyers",
    "sellers",
    "traders",
    "growers",
    "builders",
    "leaders",
    "officers",
    "managers",
    "planners",
    "lawyers",
    "fighters",
    "men",
    "women",
    "people",
    "folk",
    "folks",
    "istas",
    "istes",
    "isten",
    "ólogos",
    "ologues",
    "ologen",
    "tori",
    "isti",
)
# populations an answer can be narrowed to ("what about kids?"): an aspect, not a view
POPULATIONS = frozenset(
    split_words(
        "kids children child teens teenagers adolescents youth young adults elderly "
        "seniors pensioners retirees women men girls boys babies infants toddlers "
        "families minorities immigrants migrants refugees poor rich disabled pregnant "
        "smokers drinkers newborns generation millennials boomers students pupils "
        "passengers flyers fliers households "
        "niños niñas mujeres hombres mayores jóvenes kinder frauen männer ältere "
        "jugendliche enfants femmes hommes jeunes âgées bambini anziani donne giovani "
        "crianças idosos mulheres jovens"
    )
)
