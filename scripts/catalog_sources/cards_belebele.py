"""Catalog: Belebele (facebook/belebele), one card per FLORES-200 language variant (122), from the table below.

Facts from the dataset page: one config per variant named `<iso639-3>_<Script>` (e.g. `acm_Arab`), one split (test);
rows hold `flores_passage`, `question`, `mc_answer1`..`mc_answer4` and `correct_answer_num` (the right option, "1"-"4"
as a string). The card names use the variant in lower case.
"""

from _shared import card_tags, hf_url
from unitxt.card import TaskCard
from unitxt.loaders import LoadHF
from unitxt.operators import CastFields, ListFieldValues, Rename, Set
from unitxt.operators.field_edits import AddConstant

SAMPLED_ON_MIRRORS = True  # a family: tests/cards/test_card_families.py runs a sample of it on mirrors

VARIANTS = (
    "acm_Arab afr_Latn als_Latn amh_Ethi apc_Arab arb_Arab arb_Latn ars_Arab ary_Arab arz_Arab asm_Beng azj_Latn "
    "bam_Latn ben_Beng ben_Latn bod_Tibt bul_Cyrl cat_Latn ceb_Latn ces_Latn ckb_Arab dan_Latn deu_Latn ell_Grek "
    "eng_Latn est_Latn eus_Latn fin_Latn fra_Latn fuv_Latn gaz_Latn grn_Latn guj_Gujr hat_Latn hau_Latn heb_Hebr "
    "hin_Deva hin_Latn hrv_Latn hun_Latn hye_Armn ibo_Latn ilo_Latn ind_Latn isl_Latn ita_Latn jav_Latn jpn_Jpan "
    "kac_Latn kan_Knda kat_Geor kaz_Cyrl kea_Latn khk_Cyrl khm_Khmr kin_Latn kir_Cyrl kor_Hang lao_Laoo lin_Latn "
    "lit_Latn lug_Latn luo_Latn lvs_Latn mal_Mlym mar_Deva mkd_Cyrl mlt_Latn mri_Latn mya_Mymr nld_Latn nob_Latn "
    "npi_Deva npi_Latn nso_Latn nya_Latn ory_Orya pan_Guru pbt_Arab pes_Arab plt_Latn pol_Latn por_Latn ron_Latn "
    "rus_Cyrl shn_Mymr sin_Latn sin_Sinh slk_Latn slv_Latn sna_Latn snd_Arab som_Latn sot_Latn spa_Latn srp_Cyrl "
    "ssw_Latn sun_Latn swe_Latn swh_Latn tam_Taml tel_Telu tgk_Cyrl tgl_Latn tha_Thai tir_Ethi tsn_Latn tso_Latn "
    "tur_Latn ukr_Cyrl urd_Arab urd_Latn uzn_Latn vie_Latn war_Latn wol_Latn xho_Latn yor_Latn zho_Hans zho_Hant "
    "zsm_Latn zul_Latn"
).split()


def belebele_card(variant: str) -> TaskCard:
    return TaskCard(
        loader=LoadHF(path="facebook/belebele", name=variant),
        preprocess_steps=[
            ListFieldValues(fields=["mc_answer1", "mc_answer2", "mc_answer3", "mc_answer4"], to_field="choices"),
            Rename(field_to_field={"flores_passage": "context", "correct_answer_num": "answer"}),
            CastFields(fields={"answer": "int"}),
            AddConstant(field="answer", add=-1),
            Set(fields={"context_type": "passage"}),
        ],
        task="tasks.qa.multiple_choice.with_context",
        templates="templates.qa.multiple_choice.with_context.no_intro.all",
        __description__=f"Belebele ({variant}): four-choice reading comprehension over FLORES-200 passages, the same "
                        f"questions in 122 language variants. The 1-based right option becomes the choice index. "
                        f"One split (test).",
        __tags__=card_tags("multiple choice reading comprehension", dataset_url=hf_url("facebook/belebele"),
                           paper="https://arxiv.org/abs/2308.16884", language=variant.split("_")[0],
                           benchmark="belebele", script=variant.split("_")[1]),
    )


def register(add):
    for variant in VARIANTS:
        add(f"cards.belebele.{variant.lower()}", belebele_card(variant))
