import type { SampleConversation } from './sample-chat.js';

/** Claude.ai conversations in (or about) German, French and Portuguese. */
export const claudeLanguages: SampleConversation[] = [
  {
    slug: 'dativ-akkusativ',
    title: 'Dativ vs Akkusativ',
    start: '2025-04-24T18:10:00Z',
    model: 'claude-3-7-sonnet-20250219',
    turns: [
      {
        user: 'I am learning German for work. I never know when it is "in den Park" and when "im Park". Is there a simple rule?',
        reply: `Yes – with the two-way prepositions (in, an, auf, über, unter, vor, hinter, neben, zwischen) the question is **movement towards a place or being in it**:

- **Wohin? (where to?) → Akkusativ**: *Ich gehe in den Park.* (I go into the park.)
- **Wo? (where?) → Dativ**: *Ich bin im Park.* (I am in the park; *im* = *in dem*.)

A quick test: if you could add "into" or "onto" in English, it's Akkusativ.

*Ich lege das Buch auf den Tisch* (I put it onto the table) → *Das Buch liegt auf dem Tisch* (it lies on the table).`,
      },
      {
        user: 'Ok, dann probiere ich: "Ich hänge das Bild an der Wand." Richtig?',
        reply: `Fast! Hier bewegst du das Bild an einen Ort (wohin?), also Akkusativ:

**Ich hänge das Bild an die Wand.**

Und danach: **Das Bild hängt an der Wand.** (wo? → Dativ)

Gut gemacht – das Paar *hängen/hängen*, *legen/liegen*, *stellen/stehen* ist genau der Ort, wo diese Regel am meisten hilft.`,
      },
    ],
  },
  {
    slug: 'entretien-embauche',
    title: 'Préparer un entretien en français',
    start: '2026-04-15T07:20:00Z',
    model: 'claude-opus-4-6',
    turns: [
      {
        user: 'J’ai un entretien en visio jeudi avec une entreprise à Lyon, tout en français. Peux-tu me poser trois questions classiques et me corriger ensuite ?',
        reply: `Avec plaisir. Répondez comme en entretien, je corrige ensuite le fond et la langue.

1. **Pouvez-vous vous présenter en quelques mots ?**
2. **Pourquoi souhaitez-vous rejoindre notre équipe ?**
3. **Parlez-moi d’un problème technique difficile que vous avez résolu.**

Prenez votre temps – deux ou trois phrases par réponse suffisent pour commencer.`,
      },
      {
        user: '1. Je suis développeur backend depuis six ans, je travaille sur des API en Python. 2. Parce que votre produit m’intéresse et je veux retourner à Lyon. 3. Une fois, nous avons eu une requête qui prenait quatre secondes, j’ai ajouté un index et c’est passé à trois millisecondes.',
        reply: `Très bien, c’est clair et naturel ! Quelques retouches :

1. Parfait. Vous pouvez ajouter ce qui vous motive : « …en Python, surtout sur la performance et la fiabilité des services. »
2. « Parce que votre produit m’intéresse **et que** je souhaite revenir à Lyon » – après *parce que*, on répète *que* devant la deuxième cause. Et dites **pourquoi** le produit vous intéresse : c’est la question qu’ils attendent.
3. Excellent exemple, avec des chiffres. Racontez-le en trois temps : le problème (l’impact pour les utilisateurs), votre analyse (*EXPLAIN*), la solution et le résultat.

Petit conseil pour la visio : préparez une question pour eux à la fin, par exemple « Comment se passe l’intégration d’un nouveau développeur ? »`,
      },
    ],
  },
  {
    slug: 'irs-portugal',
    title: 'Dúvida sobre o IRS',
    start: '2026-05-10T21:35:00Z',
    model: 'claude-opus-4-6',
    turns: [
      {
        user: 'Olá! A minha companheira é portuguesa e trabalhou em Portugal até março, depois mudou-se para Inglaterra. Ela tem de entregar o IRS em Portugal este ano?',
        reply: `Olá! Muito provavelmente sim. Como recebeu rendimentos em Portugal em 2025, tem de entregar a **declaração de IRS em 2026** (o prazo normal vai de 1 de abril a 30 de junho) referente a esse ano.

Pontos a ter em conta:
- Se mudou a residência fiscal para o Reino Unido durante o ano, pode ser considerada **residente apenas parte do ano**. Deve atualizar a morada nas Finanças e indicar a data da mudança.
- Os rendimentos de trabalho depois da mudança são, em regra, tributados no Reino Unido; a convenção entre os dois países evita a dupla tributação.
- Ao viver fora da UE, pode ter de nomear um **representante fiscal** ou aderir às notificações eletrónicas no Portal das Finanças.

Como cada caso é diferente, vale a pena confirmar no Portal das Finanças ou com um contabilista.`,
      },
    ],
  },
];
