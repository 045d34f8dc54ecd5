import type { ChatgptSample } from './sample-chat.js';

/** ChatGPT conversations in French, German and Portuguese. */
export const chatgptLanguages: ChatgptSample[] = [
  {
    slug: 'resiliation-bail',
    title: 'Lettre de résiliation de bail',
    start: '2025-09-18T08:35:00Z',
    model: 'gpt-5',
    turns: [
      {
        user: 'Bonjour, je quitte mon appartement à Lyon (location vide) pour un nouveau travail à Bristol. Quel est le préavis et peux-tu m’écrire la lettre ?',
        reply: `Bonjour ! Pour une location vide, le préavis est en principe de **trois mois**. Il passe à **un mois** si le logement est en zone tendue (c’est le cas de Lyon) ou si vous avez obtenu un premier emploi ou une mutation. Précisez le motif dans la lettre pour en bénéficier.

Voici un modèle, à envoyer en recommandé avec accusé de réception :

> Objet : congé du logement situé [adresse]
>
> Madame, Monsieur,
>
> Par la présente, je vous informe de ma décision de quitter le logement que je loue au [adresse], à compter de la réception de ce courrier. Le logement étant situé en zone tendue, je bénéficie d’un préavis réduit à un mois, conformément à l’article 15 de la loi du 6 juillet 1989.
>
> Je vous propose de convenir d’une date pour l’état des lieux de sortie et vous remercie de me restituer le dépôt de garantie dans les délais légaux.
>
> Veuillez agréer, Madame, Monsieur, mes salutations distinguées.

N’oubliez pas de dater et signer la lettre.`,
      },
      {
        user: 'Merci ! Et combien de temps pour récupérer le dépôt de garantie ?',
        reply: `Le propriétaire a **un mois** après la remise des clés si l’état des lieux de sortie est conforme à celui d’entrée, et **deux mois** s’il y a des différences (des réparations à déduire, justificatifs à l’appui).

Au-delà, il vous doit une pénalité de 10 % du loyer par mois de retard. Pensez à lui donner votre nouvelle adresse, même à l’étranger, dans la lettre ou le jour de l’état des lieux.`,
      },
    ],
  },
  {
    slug: 'nebenkosten',
    title: 'Nebenkostenabrechnung prüfen',
    start: '2025-12-06T15:12:00Z',
    model: 'gpt-5-1',
    turns: [
      {
        user: 'Hallo! Meine Schwester in Berlin hat ihre Nebenkostenabrechnung bekommen und soll 640 € nachzahlen. Worauf sollte sie achten, bevor sie zahlt?',
        reply: `Eine hohe Nachzahlung lohnt sich zu prüfen. Die wichtigsten Punkte:

1. **Frist**: Der Vermieter muss innerhalb von 12 Monaten nach Ende des Abrechnungszeitraums abrechnen. Kommt die Abrechnung für 2024 erst 2026, muss sie nichts nachzahlen.
2. **Umlageschlüssel**: Wird nach Wohnfläche, Personen oder Verbrauch verteilt? Stimmt die angegebene Wohnfläche?
3. **Nur umlagefähige Kosten**: Verwaltungskosten, Reparaturen und Instandhaltung dürfen nicht auf Mieter umgelegt werden.
4. **Vergleich mit dem Vorjahr**: Ist ein Posten stark gestiegen, zum Beispiel Heizung oder Hausmeister?
5. **Belegeinsicht**: Sie darf die Rechnungen beim Vermieter einsehen.

Für Einwände hat sie ebenfalls 12 Monate Zeit. Der Mieterverein hilft günstig, wenn etwas unklar ist.`,
      },
      {
        user: 'Die Heizkosten sind fast doppelt so hoch wie letztes Jahr. Ist das normal?',
        reply: `Das kann leider normal sein: Die Gas- und Fernwärmepreise sind in den letzten Jahren stark gestiegen, und viele Vermieter geben höhere Preise erst mit der Abrechnung weiter.

Trotzdem prüfen:
- Ist der **Verbrauch** (in kWh) gestiegen oder nur der **Preis**? Das steht in der Heizkostenabrechnung.
- Mindestens 50 % (meist 70 %) der Heizkosten müssen nach **Verbrauch** abgerechnet werden.
- Wurden die Zähler richtig abgelesen?

Wenn nur der Preis gestiegen ist, sollte sie auch die monatlichen **Vorauszahlungen** erhöhen, damit die nächste Nachzahlung kleiner ausfällt.`,
      },
    ],
  },
  {
    slug: 'bacalhau',
    title: 'Receita de bacalhau à Brás',
    start: '2026-03-21T18:50:00Z',
    model: 'gpt-5-2',
    turns: [
      {
        user: 'Olá! Quero fazer bacalhau à Brás para os meus sogros no domingo. Tens uma receita simples para 4 pessoas?',
        reply: `Olá! Aqui vai uma receita clássica para 4:

**Ingredientes**
- 400 g de bacalhau demolhado e desfiado
- 400 g de batata palha (ou batatas cortadas muito finas e fritas)
- 2 cebolas e 2 dentes de alho
- 6 ovos
- azeite, salsa picada e azeitonas pretas

**Preparação**
1. Aloure a cebola em tiras e o alho num bom fio de azeite, em lume brando.
2. Junte o bacalhau e deixe cozinhar 5 minutos, mexendo.
3. Adicione a batata palha e envolva bem.
4. Desligue o lume, junte os ovos batidos e mexa até ficarem cremosos, sem secar.
5. Sirva com salsa e azeitonas por cima.

O segredo é tirar do lume antes de os ovos coalharem por completo.`,
      },
      {
        user: 'E se eu só encontrar bacalhau seco? Quanto tempo fica de molho?',
        reply: `Com bacalhau seco, conte com **24 a 48 horas** de demolha, no frigorífico, mudando a água 3 a 4 vezes por dia. Postas finas ficam prontas em cerca de 24 horas; postas altas precisam de 48.

Para saber se está bom, prove um pedacinho cru: deve saber ligeiramente a sal, não muito. Se comprar no sábado de manhã, já não vai a tempo para domingo ao almoço – nesse caso, bacalhau já demolhado e congelado é uma boa alternativa.`,
      },
    ],
  },
];
