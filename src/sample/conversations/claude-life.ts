import type { SampleConversation } from './sample-chat.js';

/** Claude.ai conversations about trips, health, money, food and the house. */
export const claudeLife: SampleConversation[] = [
  {
    slug: 'highlands-road-trip',
    title: 'Scottish Highlands road trip',
    start: '2025-07-06T19:25:00Z',
    model: 'claude-sonnet-4-20250514',
    turns: [
      {
        user: 'We have 6 days in early September to drive around the Scottish Highlands, starting and ending in Edinburgh. Is the North Coast 500 doable in that time or too rushed?',
        reply: {
          steps: [
            {
              search: 'North Coast 500 how many days recommended',
              results: [
                {
                  title: 'Planning your NC500 trip',
                  url: 'https://www.nc500.example.org/planning',
                  quote:
                    'The route is 516 miles long; most visitors take five to seven days to drive it.',
                },
                {
                  title: 'Single track roads in the Highlands',
                  url: 'https://roads.example.org/single-track',
                  quote:
                    'Use passing places on the left to let oncoming traffic pass, and to let faster vehicles overtake.',
                },
              ],
            },
          ],
          text: `The NC500 itself is about 516 miles and most people take 5–7 days for it – but that starts in Inverness. Add the drive from Edinburgh and back (about 3.5 hours each way) and six days gets tight, with long days on slow single-track roads in the north-west.

Two better fits for six days:
1. **Half the NC500**: Edinburgh → Pitlochry → Inverness → the west coast (Ullapool, Applecross) → Skye → Glencoe → Edinburgh. You get the most dramatic stretch without the rush.
2. **Skye and Glencoe loop**: fewer miles, more walking – two nights on Skye, one in Glencoe, one near Loch Lomond.

Whichever you pick, book accommodation now – September is still busy – and learn the passing-place etiquette: pull in on your left, or opposite one on your right, to let others by.`,
          cites: [
            {
              title: 'Planning your NC500 trip',
              url: 'https://www.nc500.example.org/planning',
              quote:
                'The route is 516 miles long; most visitors take five to seven days to drive it.',
            },
            {
              title: 'Single track roads in the Highlands',
              url: 'https://roads.example.org/single-track',
              quote:
                'Use passing places on the left to let oncoming traffic pass, and to let faster vehicles overtake.',
            },
          ],
        },
      },
      {
        user: 'Option 1 please. What about midges in September?',
        reply: `Early September is past the worst, but they are still around on calm, damp evenings, especially on the west coast and near water. Practical kit:

- a repellent with **DEET** or the oil-based skin sprays locals swear by,
- a **head net** for evening walks – cheap, light and very effective,
- pick accommodation with windows you can keep closed, and eat dinner indoors on still evenings.

A breeze keeps them away, so exposed viewpoints and beaches are usually fine.`,
      },
    ],
  },
  {
    slug: 'decline-offer',
    title: 'Declining a job offer politely',
    start: '2025-08-14T08:55:00Z',
    model: 'claude-opus-4-1-20250805',
    turns: [
      {
        user: 'I got two offers and I am taking the other one. Help me write a short email to decline the first, I liked the people there and might want to work with them later.',
        reply: `Here is a short, warm version:

> Subject: Backend Engineer offer
>
> Hi Priya,
>
> Thank you so much for the offer and for the time you and the team spent with me over the last few weeks. After a lot of thought I have decided to accept another role that is a slightly better fit for where I want to go next.
>
> It was a genuinely hard decision – I enjoyed every conversation with the team, and I would love to stay in touch. I hope our paths cross again.
>
> All the best,
> Sam

Send it soon: they may have a second candidate waiting, and a quick answer is the thing people remember.`,
      },
    ],
  },
  {
    slug: 'fungus-gnats',
    title: 'Tiny flies around houseplants',
    start: '2025-09-27T17:05:00Z',
    model: 'claude-opus-4-1-20250805',
    turns: [
      {
        user: 'There are loads of tiny black flies around my houseplants, especially the monstera. They don’t seem to bite but they are everywhere. What are they and how do I get rid of them?',
        reply: `Those are almost certainly **fungus gnats**. The adults are harmless; their larvae live in the top few centimetres of damp compost and feed on fungi and fine roots.

To break the cycle:
1. **Let the top of the compost dry out** between waterings – the larvae need it wet. Water from below (stand the pot in a tray) for a few weeks.
2. **Yellow sticky traps** in the pots catch the adults so they cannot lay more eggs.
3. Cover the soil with a 1–2 cm layer of **grit or sand**.
4. For a bad case, water with **nematodes** (Steinernema feltiae), sold for exactly this – they kill the larvae.

It takes 3–4 weeks because of the life cycle, so keep at it even when you see fewer flies.`,
      },
    ],
  },
  {
    slug: 'rent-or-buy',
    title: 'Rent vs buy in Bristol',
    start: '2025-10-19T20:40:00Z',
    model: 'claude-sonnet-4-5-20250929',
    turns: [
      {
        user: 'Rent is £1,350/month. We could buy a similar flat for £320k with £48k deposit, mortgage around 4.5% over 25 years. Over 7 years, are we better off buying? Assume house prices grow 2% a year.',
        reply: {
          steps: [
            {
              thinking:
                'Compare after 7 years. Buying: monthly payment on 272k at 4.5% over 25 years, interest paid, plus costs (stamp duty for first-time buyers under 425k is zero, fees ~3k, maintenance ~1%/yr, selling costs ~2% later). Equity = value after growth minus remaining balance. Renting: rent rising ~3%/yr, deposit invested at ~5%. Run the numbers.',
              seconds: 18,
            },
            {
              run: `price, deposit, rate, years = 320_000, 48_000, 0.045 / 12, 25
loan = price - deposit
pay = loan * rate / (1 - (1 + rate) ** -(years * 12))
balance = loan
for _ in range(7 * 12):
    balance = balance * (1 + rate) - pay
value = price * 1.02 ** 7
equity = value * 0.98 - balance          # 2% selling costs
buy_cost = pay * 84 + price * 0.01 * 7 + 3_000 - (equity - deposit)
rent = sum(1_350 * 12 * 1.03 ** y for y in range(7))
invested = deposit * 1.05 ** 7 - deposit
print(f"mortgage payment {pay:,.0f}/month")
print(f"buying: net cost {buy_cost:,.0f}")
print(f"renting: net cost {rent - invested:,.0f}")`,
              output: `mortgage payment 1,512/month
buying: net cost 63,710
renting: net cost 104,591`,
            },
          ],
          text: `With your assumptions, **buying comes out about £40,000 ahead over 7 years**:

- Mortgage payment: about **£1,512 a month**, so £160 more than your rent today.
- **Buying**, net of the equity you build and after 2% selling costs, maintenance at 1% a year and £3k of fees: about **£63,700** over 7 years.
- **Renting** at £1,350 rising 3% a year, with the £48k deposit invested at 5% instead: about **£104,600**.

The result swings with the assumptions. If prices fall, or you sell within 2–3 years, renting can win; the longer you stay, the more buying pulls ahead. As a first-time buyer under £425k you pay no stamp duty, which helps a lot here.

The non-money questions matter as much: how sure are you that you will stay 7 years, and how much do you value being able to paint the walls?`,
        },
      },
    ],
  },
  {
    slug: 'blood-test',
    title: 'Understanding my blood test results',
    start: '2025-11-21T12:15:00Z',
    model: 'claude-sonnet-4-5-20250929',
    turns: [
      {
        user: 'Got my results back from a routine check, GP appointment is next week. Can you explain what these mean in plain English? I feel fine.',
        files: [
          {
            name: 'blood-results.txt',
            text: `Full blood count
Haemoglobin 141 g/L (130-180)
Ferritin 18 ug/L (30-400) LOW
Vitamin D 38 nmol/L (50-200) LOW
Lipids
Total cholesterol 5.4 mmol/L (<5.0) HIGH
HDL 1.6 mmol/L (>1.0)
Thyroid
TSH 2.1 mU/L (0.3-4.2)`,
          },
        ],
        reply: {
          steps: [
            {
              thinking:
                'Explain each flagged value simply, note that haemoglobin and thyroid are normal, avoid diagnosing. Low ferritin with normal haemoglobin means low iron stores; low vitamin D is very common in UK winter; cholesterol slightly high with good HDL. Suggest questions for the GP.',
              seconds: 9,
            },
          ],
          text: `Most of this is reassuring. In plain English:

- **Haemoglobin 141 – normal.** You are not anaemic.
- **Ferritin 18 – low.** Ferritin is your iron *store*. It is a bit low, but because haemoglobin is fine it has not affected your blood yet. Common causes are diet, heavy periods or regular blood donation.
- **Vitamin D 38 – low.** Very common in the UK by November. The NHS suggests a 10 microgram (400 IU) supplement for everyone in autumn and winter anyway.
- **Cholesterol 5.4 – slightly high**, but your **HDL (the "good" one) is healthy**. Doctors look at the ratio and your overall risk, not the total alone.
- **TSH 2.1 – normal** thyroid.

Questions worth asking your GP:
1. Should I take an iron supplement, and should we check why the ferritin is low?
2. What dose of vitamin D, and for how long?
3. What is my overall heart risk score, given the cholesterol?

I can't replace the GP's view, but nothing here looks urgent.`,
        },
      },
    ],
  },
  {
    slug: 'meal-prep',
    title: 'Vegetarian meal prep for a week',
    start: '2026-01-04T15:30:00Z',
    model: 'claude-opus-4-5-20251101',
    turns: [
      {
        user: 'New year, trying to stop buying lunch at work. Vegetarian, I have about 2 hours on Sunday. Plan 5 lunches that keep in the fridge and don’t get soggy.',
        reply: `A plan built from three bases you cook once and mix differently:

**Cook on Sunday (about 2 hours)**
- a big tray of **roasted veg**: squash, red onion, peppers, chickpeas (45 min at 200 °C)
- a pot of **farro or brown rice**
- a jar of **lemon-tahini dressing**
- 6 **boiled eggs**
- a pan of **black bean chilli**

**The lunches**
- Mon & Tue: grain bowl – farro, roasted veg, feta, dressing on the side
- Wed: chilli with rice and a spoon of yoghurt
- Thu: big salad – leaves packed separately, roasted chickpeas, eggs, dressing
- Fri: chilli again, in a wrap with cheese

Keeping it crisp: dressing always in a separate little pot, leaves added on the day, and grains cooled fully before the lid goes on.`,
      },
    ],
  },
  {
    slug: 'fresh-pasta',
    title: 'Fresh pasta without a machine',
    start: '2026-01-31T13:05:00Z',
    model: 'claude-opus-4-6',
    turns: [
      {
        user: 'Can I make fresh pasta with just a rolling pin? No pasta machine. Want to do tagliatelle for 2.',
        reply: `Absolutely – people did for centuries. For two:

- **200 g "00" flour** (or plain flour) and **2 eggs**
- Make a well, crack in the eggs, mix with a fork, then knead 8–10 minutes until smooth and springy.
- **Wrap and rest 30 minutes.** This is the step that makes rolling by hand possible.
- Roll on a lightly floured surface, turning the sheet a quarter turn often, until you can **see your hand through it**, about 1–2 mm.
- Dust with flour or semolina, roll it up loosely like a carpet, and slice into 6–7 mm ribbons. Shake them out straight away.

Cook 2–3 minutes in well-salted water. It is ready much faster than dried pasta, so have the sauce waiting.`,
      },
    ],
  },
  {
    slug: 'bike-gears',
    title: 'Bike gears skipping',
    start: '2026-03-14T09:40:00Z',
    model: 'claude-opus-4-6',
    turns: [
      {
        user: 'My bike chain skips when I pedal hard in the smaller rear gears. Shifting seems fine otherwise. Worn out or just needs adjusting?',
        reply: `Skipping under load, mostly in the small cogs, is the classic sign of a **worn chain and cassette** – the small cogs you use most wear first.

Check in two minutes:
1. **Chain wear**: a chain checker tool (a few pounds) – at 0.5% on an 11/12-speed chain or 0.75% on older ones, replace it. Or measure 12 links: more than 12⅛ inches (about 3 mm over) means worn.
2. **Cable tension**: shift into the skipping gear and turn the barrel adjuster on the rear mech half a turn anticlockwise. If the skipping stops, it was adjustment.

If the chain is very worn, a new chain on the old cassette often skips even more – then both need replacing. Going forward, replacing the chain early (every 2,000–3,000 km) saves the cassette.`,
      },
    ],
  },
  {
    slug: 'nephew-party',
    title: 'Games for a 7-year-old’s party',
    start: '2026-06-06T10:15:00Z',
    model: 'claude-opus-4-6',
    turns: [
      {
        user: 'I’m helping with my nephew’s 7th birthday, 12 kids, a small garden, 2 hours. He loves dinosaurs. Give me a plan with games so it doesn’t descend into chaos.',
        reply: `A dinosaur party in two hours, with calm and wild moments in turn:

| time | what |
|---|---|
| 0:00 | arrivals: colour-in dinosaur masks at a table |
| 0:15 | **Dino egg hunt**: plastic eggs hidden in the garden, each with a sticker inside |
| 0:35 | **Dinosaur says** (Simon says, but "T-rex says stomp!") |
| 0:45 | **Fossil dig**: toy bones buried in a sandpit or a paddling pool of sand |
| 1:05 | food and cake |
| 1:35 | **Pass the dinosaur egg** (pass the parcel with a dinosaur toy in the middle) |
| 1:50 | party bags, pick-up |

Tips: have a second adult for every 6 kids, keep one quiet game ready for when energy spikes, and put the cake straight after the most active game so they sit down happily.`,
      },
    ],
  },
];
