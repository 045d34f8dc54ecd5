import type { ChatgptSample } from './sample-chat.js';

/** ChatGPT conversations about trips, health and money. */
export const chatgptLife: ChatgptSample[] = [
  {
    slug: 'index-funds',
    title: 'Index Funds vs ETFs',
    start: '2025-04-03T21:12:00Z',
    model: 'gpt-4o',
    turns: [
      {
        user: 'whats the actual difference between an index fund and an ETF? my bank app offers both and they track the same index',
        reply: `If they track the same index, they hold the same shares – the difference is in **how you buy and sell them**:

- An **index fund** (a unit trust or OEIC) is priced once a day. You buy at that day's price, often with regular monthly amounts and no dealing fee.
- An **ETF** trades on the stock exchange like a share, with a live price all day. Some platforms charge a fee per trade.

For someone putting in a fixed amount every month and holding for years, the index fund is usually simpler and cheaper. The ETF wins if your platform charges a percentage fee on funds but a flat fee on shares.

Compare the **ongoing charge** (OCF) of the two – that matters more than the wrapper.`,
      },
    ],
  },
  {
    slug: 'mortgage-overpay',
    title: 'Mortgage Overpayment Savings',
    start: '2025-05-11T10:30:00Z',
    model: 'o3',
    turns: [
      {
        user: 'Mortgage: £182,000 left, 4.4% fixed, 23 years remaining. If I overpay £200 a month, how much interest do I save and how much sooner is it paid off?',
        reply: {
          steps: [
            {
              thinking:
                'Standard repayment mortgage, monthly compounding. Compute the regular payment from the balance, rate and term, then simulate with and without the extra 200 a month. Report interest saved and months saved; mention the fixed-rate overpayment limit.',
              seconds: 14,
            },
            {
              run: `balance, rate, years = 182_000, 0.044 / 12, 23
n = years * 12
payment = balance * rate / (1 - (1 + rate) ** -n)

def run(extra):
    b, months, interest = balance, 0, 0.0
    while b > 0:
        i = b * rate
        interest += i
        b = b + i - payment - extra
        months += 1
    return months, interest

base, over = run(0), run(200)
print(f"payment {payment:.2f}")
print(f"no overpayment: {base[0]} months, interest {base[1]:,.0f}")
print(f"with 200/month: {over[0]} months, interest {over[1]:,.0f}")`,
              output: `payment 1049.54
no overpayment: 277 months, interest 107,672
with 200/month: 209 months, interest 78,736`,
            },
          ],
          text: `With your numbers the regular payment is about **£1,050 a month**. Overpaying **£200 a month**:

- you pay about **£28,900 less interest** (£78,700 instead of £107,700),
- and you are mortgage-free **about 5 years and 8 months sooner** (209 months instead of 277).

Two things to check first:
1. Most fixed deals allow overpayments of **10% of the balance a year** without a fee – £200 a month is well inside that.
2. Keep an emergency fund before overpaying; money in the mortgage is hard to get back out.`,
        },
      },
    ],
  },
  {
    slug: 'ibuprofen-paracetamol',
    title: 'Taking Ibuprofen and Paracetamol',
    start: '2025-07-02T23:40:00Z',
    model: 'gpt-4o',
    turns: [
      {
        user: 'can I take ibuprofen and paracetamol together? bad toothache and the dentist cant see me till thursday',
        reply: `For most healthy adults, yes – they work in different ways and are often recommended together for dental pain. You can take them at the same time or stagger them (for example paracetamol, then ibuprofen two hours later) so the relief overlaps.

Stay within the limits on each packet: typically paracetamol 1 g up to 4 times in 24 hours, ibuprofen 200–400 mg up to 3 times a day with food.

Skip the ibuprofen and ask a pharmacist first if you have asthma that reacts to it, stomach ulcers, kidney problems, are pregnant, or take blood thinners.

And see a dentist or urgent care sooner if your face or jaw swells, you get a fever, or it hurts to swallow – that can be an infection that needs treating now.

I am not a doctor; your pharmacist can confirm this for your situation in two minutes.`,
      },
    ],
  },
  {
    slug: 'japan-itinerary',
    title: 'Japan Trip Itinerary',
    start: '2025-09-04T19:55:00Z',
    model: 'gpt-5',
    turns: [
      {
        user: 'Planning 12 days in Japan in late March with my partner, first time. Tokyo, Kyoto, maybe Osaka. We like food, walking, temples, not into nightlife. Rough plan?',
        before: {
          reply: `Here is a simple plan: Tokyo 5 days, Kyoto 5 days, Osaka 2 days. Take the shinkansen between them. Book hotels early for cherry blossom season.`,
        },
        reply: `Late March is cherry blossom season, so it is beautiful and busy. A relaxed 12 days:

**Tokyo (days 1–5)**
- Day 1: arrive, walk around Shinjuku, early night.
- Day 2: Asakusa and Senso-ji in the morning, Ueno park for blossoms.
- Day 3: Meiji Shrine, Harajuku, Omotesando, evening in Shibuya.
- Day 4: day trip to Nikko or Kamakura for temples outside the city.
- Day 5: Tsukiji outer market breakfast, Yanaka old town walk.

**Kyoto (days 6–10)**
- Fushimi Inari at 7 am before the crowds, Higashiyama and Kiyomizu-dera, the Philosopher's Path (prime blossom spot), Arashiyama bamboo grove, a day trip to Nara for the deer and Todai-ji.

**Osaka (days 11–12)**
- Dotonbori and Kuromon market for street food, fly home from Kansai airport.

Book your hotels now – March fills up months ahead.`,
      },
      {
        user: 'Is the JR pass still worth it for this route?',
        reply: {
          steps: [
            {
              search: 'JR Pass price 2025 7 day vs Tokyo Kyoto shinkansen ticket',
              results: [
                {
                  title: 'Japan Rail Pass prices',
                  url: 'https://www.japanrailpass.example.org/prices',
                  quote: 'Since October 2023 the 7-day ordinary pass costs 50,000 yen.',
                },
                {
                  title: 'Tokyo to Kyoto by shinkansen',
                  url: 'https://travel.example.org/tokyo-kyoto-shinkansen',
                  quote:
                    'A reserved Nozomi ticket from Tokyo to Kyoto costs about 14,170 yen one way.',
                },
              ],
            },
          ],
          text: `For your route, **probably not**. The 7-day pass went up to about ¥50,000 in 2023, while your long trips are:

- Tokyo → Kyoto: about ¥14,000
- Kyoto ↔ Nara, Kyoto → Osaka: a few hundred to ¥1,000 each, on local lines
- a Nikko or Kamakura day trip: ¥3,000–5,000

That adds up to roughly ¥20,000–25,000, half the pass. Buy single shinkansen tickets (the SmartEX app works with foreign cards) and use an IC card like Suica for everything else.`,
          cites: [
            {
              title: 'Japan Rail Pass prices',
              url: 'https://www.japanrailpass.example.org/prices',
              quote: 'Since October 2023 the 7-day ordinary pass costs 50,000 yen.',
            },
            {
              title: 'Tokyo to Kyoto by shinkansen',
              url: 'https://travel.example.org/tokyo-kyoto-shinkansen',
              quote: 'A reserved Nozomi ticket from Tokyo to Kyoto costs about 14,170 yen one way.',
            },
          ],
        },
      },
      {
        user: 'Perfect. Any ryokan tips for Kyoto? budget about 250 euros a night',
        reply: `€250 a night gets you a good ryokan in Kyoto, especially midweek:

- Look in **Gion and Higashiyama** for the classic wooden streets, or near **Arashiyama** for a quieter stay.
- Choose a room with **dinner and breakfast included** (kaiseki) for at least one night – that is the experience. The other nights a simpler inn or hotel saves money.
- Check whether the bath is **shared or private**; many small ryokan have a private bath you book by the hour.
- Bring socks without holes – you will be in slippers or barefoot a lot.

One or two nights in a ryokan and the rest in a business hotel near Kyoto Station is a popular mix.`,
      },
    ],
  },
  {
    slug: 'knee-running',
    title: 'Knee Pain After Running',
    start: '2025-10-12T12:02:00Z',
    model: 'gpt-5',
    instructions: {
      profile:
        'I live in Bristol, run 3 times a week and I am training for my first half marathon.',
      instructions: 'Be direct, skip the disclaimers unless they matter.',
    },
    turns: [
      {
        user: 'pain on the outside of my right knee after about 8km, goes away when I stop. no swelling. what is it',
        reply: `That pattern – sharp pain on the **outside** of the knee that starts at a predictable distance and fades when you stop – is classic **IT band syndrome**. It is common when mileage goes up quickly before a half.

What helps:
- **Cut back** to runs shorter than the distance where it starts, for 1–2 weeks, rather than stopping completely.
- **Strengthen the hips**: clamshells, side planks, single-leg squats, 3 times a week. Weak glutes are the usual cause.
- **Foam roll the outer thigh** and hip (not the painful spot on the knee itself).
- Check your **shoes** (over 600–800 km?) and avoid running the same side of a cambered road every time.

See a physio if it hurts when walking, if there is swelling or locking, or if it does not improve in 3 weeks.`,
      },
      {
        user: 'race is in 5 weeks. can I still do it?',
        reply: `Most likely yes, if you are sensible now. Five weeks is enough for ITB pain to settle if you:

1. Keep running but **under the pain threshold** for the next 10 days.
2. Do the hip strength work daily.
3. Build back to one long run of 16–18 km by two weeks before the race.
4. Taper the last 10 days.

If a 10 km run is pain-free two weeks out, you are fine to race. On the day, start slower than your target pace – ITB often flares when you go out too fast.`,
      },
    ],
  },
  {
    slug: 'budget-csv',
    title: 'Monthly Spending Breakdown',
    start: '2025-11-16T14:25:00Z',
    model: 'gpt-5-1',
    turns: [
      {
        user: 'Here is my bank export for October. Where is my money going? Be honest.',
        files: [
          {
            name: 'october-transactions.csv',
            text: `date,description,amount,category
2025-10-01,Rent,-1150.00,housing
2025-10-02,Tesco,-64.20,groceries
2025-10-03,Netflix,-10.99,subscriptions
2025-10-04,Deliveroo,-28.50,takeaway
2025-10-06,Spotify,-11.99,subscriptions
2025-10-07,Shell,-55.00,transport
2025-10-09,Deliveroo,-31.20,takeaway
2025-10-11,Tesco,-72.85,groceries
2025-10-12,Gym,-39.00,health
2025-10-15,Uber Eats,-24.10,takeaway
2025-10-18,Tesco,-58.40,groceries
2025-10-20,Amazon,-46.99,shopping
2025-10-22,Deliveroo,-35.75,takeaway
2025-10-24,Electricity,-96.00,bills
2025-10-25,Tesco,-61.30,groceries
2025-10-28,Disney+,-8.99,subscriptions
2025-10-29,Uber Eats,-27.40,takeaway
2025-10-31,Salary,2850.00,income`,
          },
        ],
        reply: {
          steps: [
            {
              run: `import pandas as pd
df = pd.read_csv('/mnt/data/october-transactions.csv')
spent = df[df.amount < 0].groupby('category').amount.sum().abs().sort_values(ascending=False)
print(spent)
print('total spent', spent.sum(), 'income', df[df.amount > 0].amount.sum())`,
              output: `category
housing          1150.00
groceries         256.75
takeaway          146.95
bills              96.00
transport          55.00
shopping           46.99
health             39.00
subscriptions      31.97
Name: amount, dtype: float64
total spent 1822.66 income 2850.0`,
            },
          ],
          text: `Honest version: you are in good shape – you spent **£1,823 of £2,850**, so about £1,000 is left. The things that stand out:

- **Takeaways: £147 in 5 orders**, more than half your grocery bill. That is the easiest place to save; two fewer orders a month is about £60.
- **Subscriptions: £32** across Netflix, Spotify and Disney+. Fine if you use all three – drop one if not.
- Rent is 40% of your income, which is normal for the UK.

If you want, I can sketch a monthly budget that moves £300 into savings automatically on payday.`,
        },
      },
    ],
  },
  {
    slug: 'lisbon-packing',
    title: 'Lisbon Weekend Packing List',
    start: '2026-04-09T17:45:00Z',
    model: 'gpt-5-2',
    turns: [
      {
        user: 'Going to Lisbon for 4 days next week, hand luggage only. What is the weather like in mid April and what should I pack?',
        reply: {
          steps: [
            {
              search: 'Lisbon weather mid April average temperature rain',
              results: [
                {
                  title: 'Lisbon climate by month',
                  url: 'https://weather.example.org/lisbon/april',
                  quote:
                    'April in Lisbon averages highs of 20 °C and lows of 12 °C, with rain on about 8 days.',
                },
              ],
            },
          ],
          text: `Mid April in Lisbon is mild: around **20 °C in the day, 12 °C at night**, with a fair chance of a shower or two.

For 4 days, hand luggage:
- **Comfortable shoes with grip** – the pavements are polished stone and very slippery when wet, and the city is all hills
- 2 pairs of trousers or jeans, 4 tops, one warmer jumper for the evenings
- a light rain jacket
- sunglasses and sunscreen – the sun is stronger than the temperature suggests
- a small day bag for the trams and the miradouros (viewpoints)

Leave the umbrella at home; the wind by the river turns them inside out.`,
          cites: [
            {
              title: 'Lisbon climate by month',
              url: 'https://weather.example.org/lisbon/april',
              quote:
                'April in Lisbon averages highs of 20 °C and lows of 12 °C, with rain on about 8 days.',
            },
          ],
        },
      },
    ],
  },
  {
    slug: 'waking-4am',
    title: 'Waking Up at 4am',
    start: '2026-05-19T04:22:00Z',
    model: 'gpt-5-2',
    turns: [
      {
        user: 'Why do I keep waking up at 4am every night and can’t get back to sleep? Been going on for 3 weeks. Work is stressful right now.',
        reply: `Waking in the early hours and lying there with your mind racing is one of the most common signs of stress. Cortisol naturally starts rising in the early morning, and when you are under pressure that rise can be enough to wake you.

Things that help:
- **Don't check the time or your phone.** Seeing "4:07" starts the worrying.
- If you are awake for more than 20 minutes, **get up**, sit somewhere dim and read something dull, go back when you feel sleepy.
- Keep a **fixed wake-up time**, even after a bad night, so your body clock does not drift.
- Cut caffeine after midday and alcohol in the evening – alcohol makes you wake up in the second half of the night.
- Write tomorrow's to-do list before bed, so your brain does not have to hold it.

If it lasts more than a month or two, or your mood is low, talk to your GP – CBT for insomnia works very well and is often available for free.`,
      },
    ],
  },
];
