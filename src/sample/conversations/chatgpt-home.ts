import type { ChatgptSample } from './sample-chat.js';

/** ChatGPT conversations about food, the house and the garden. */
export const chatgptHome: ChatgptSample[] = [
  {
    slug: 'lentil-dinners',
    title: 'Quick Lentil Dinner Ideas',
    start: '2025-01-14T18:42:00Z',
    model: 'gpt-4o',
    turns: [
      {
        user: 'I have a big bag of red lentils and zero inspiration. Give me 3 weeknight dinners, 30 minutes max, nothing fancy.',
        reply: `Here are three that work on a tired Tuesday:

1. **Red lentil dal** – soften an onion, garlic and ginger, add 200 g lentils, a tin of tomatoes, 700 ml water, cumin and turmeric. Simmer 20 minutes, finish with lemon. Rice or flatbread.
2. **Lentil and coconut soup** – same base, swap the tomatoes for a tin of coconut milk and add a spoon of curry paste. Blend half if you like it smooth.
3. **Lentil bolognese** – brown a carrot and celery, add lentils, passata and a splash of soy sauce for depth. Serve with pasta.

All three freeze well, so make double.`,
      },
      {
        user: 'the dal sounds good. my partner hates coriander, what do i top it with instead?',
        reply: `Plenty of options:
- a **tarka**: sizzle mustard seeds, cumin seeds and sliced garlic in hot oil and pour it over – this is the classic finish anyway
- crispy fried onions
- a spoon of plain yoghurt and a pinch of chilli flakes
- chopped spring onion or fresh mint

The tarka makes the biggest difference, so I would start there.`,
      },
    ],
  },
  {
    slug: 'starter-not-rising',
    title: 'Sourdough Starter Not Rising',
    start: '2025-02-09T09:15:00Z',
    model: 'gpt-4o',
    turns: [
      {
        user: 'My sourdough starter is 9 days old and it barely rises anymore. First few days it went crazy, now it just sits there with a few bubbles. Photo attached. What am I doing wrong?',
        files: [{ name: 'starter-jar.png' }],
        reply: `That is very normal, and it usually means nothing is wrong. The big rise in the first days comes from bacteria that the starter later pushes out as it turns acidic. Around days 7–14 many starters go quiet before the real yeast takes over.

To help it along:
- **Feed it at a steady time**, once or twice a day, 1:1:1 (starter : flour : water by weight).
- **Keep it warm**, ideally 24–26 °C. A kitchen at 18 °C slows it down a lot. The oven with only the light on works.
- **Use some wholemeal or rye flour** – it has more food for the yeast.
- **Mark the jar** with a rubber band after feeding so you can see the rise.

Give it another week. When it reliably doubles 4–8 hours after a feed, it is ready to bake with.`,
      },
      {
        user: 'Ok. There is a grey liquid on top in the morning, should I throw it out?',
        reply: `No need to throw anything out. That liquid is called **hooch**: alcohol the yeast makes when it is hungry. It just means the starter ran out of food overnight.

Pour it off (for a milder flavour) or stir it back in (for a more sour one), then feed as usual. If it shows up every morning, feed a bit more flour or feed later in the evening.

Only throw it out if you see fuzzy mould or pink or orange streaks.`,
      },
      {
        user: 'Day 16 update: it doubled in 5 hours! what hydration should I use for my first loaf? I only have normal bread flour',
        later: 10_080,
        reply: `Congratulations, that is a healthy starter.

For a first loaf with ordinary bread flour, go for **70% hydration**. It is easy to handle and still gives an open crumb:

| | grams |
|---|---|
| bread flour | 500 |
| water | 350 |
| active starter | 100 |
| salt | 10 |

Mix flour and water, rest 30 minutes, add starter and salt. Do 3–4 sets of stretch and folds over the first 2 hours, then let it rise until about 50% bigger (4–6 hours at room temperature). Shape, proof overnight in the fridge, and bake in a preheated Dutch oven at 250 °C: 20 minutes with the lid, 20–25 without.

Once you are comfortable you can push it to 75%.`,
      },
    ],
  },
  {
    slug: 'mesh-wifi',
    title: 'Wi-Fi Dead Zone Upstairs',
    start: '2025-03-22T20:05:00Z',
    model: 'gpt-4o',
    turns: [
      {
        user: 'Our router is in the hallway downstairs and the signal in the back bedroom upstairs is awful, video calls keep freezing. House is an old brick terrace. Should I buy a mesh system or a range extender?',
        reply: `In an old brick house, **mesh** is almost always the better buy. Brick walls absorb a lot of the 5 GHz signal, and a plain extender repeats a weak signal on the same radio, which roughly halves its speed.

Some options, best first:
1. **Ethernet backhaul**: if you can run a cable upstairs, any access point on the end of it will be perfect.
2. **Powerline adapters + access point**: uses your house wiring. Works well in many terraces, but depends on the circuits.
3. **A mesh kit with 2–3 units**: put one next to the router and one on the landing, in line of sight of the bedroom if possible.

Before you buy, check where the router sits: inside a cupboard or behind the TV costs a lot of signal. Moving it higher and more central is free.`,
      },
      {
        user: 'Got a 2-pack mesh. The satellite upstairs has a solid orange light, what does that mean?',
        files: [{ name: 'satellite-light.png' }],
        reply: `On most mesh kits a **solid orange (amber) light means the satellite is connected, but the link to the main unit is weak**. Blue or white is good, red usually means no connection at all.

Try this:
- Move the satellite **halfway** between the router and the bedroom rather than into the bedroom itself. It needs a good signal to pass on.
- Keep it off the floor and away from the boiler, mirrors and fish tanks.
- Check the app: most show the link quality and suggest a spot.

If the landing is still orange, powerline between the two units (wired backhaul) is the fallback.`,
      },
    ],
  },
  {
    slug: 'tomato-leaves',
    title: 'Tomato Leaves Turning Yellow',
    start: '2025-06-18T07:48:00Z',
    model: 'o4-mini',
    turns: [
      {
        user: 'The bottom leaves on my tomato plants (in pots on the balcony) are going yellow with brown spots. The top looks fine. Disease?',
        reply: {
          steps: [
            {
              thinking:
                'Lower leaves first, yellow with brown spots, container plants in June. Could be early blight (concentric rings), septoria (small spots with dark edges), or just nitrogen shortage and splashing. Ask about the rings and watering, give a safe first step.',
              seconds: 6,
            },
          ],
          text: `It could be two things, and the spots tell them apart:

- **Early blight**: brown spots with **rings like a target**, yellowing around them, starting low and moving up. It is a fungus that splashes up from the soil.
- **Hungry plant**: plain yellowing of the oldest leaves, no target rings. Pots run out of nitrogen fast once the fruit sets.

Either way:
1. Pinch off the affected lower leaves and bin them (not the compost).
2. Water the soil, not the leaves, and in the morning.
3. Put a layer of mulch or straw on the soil so it does not splash.
4. Start a tomato feed every week if you have not yet.

If the spots have rings and keep climbing, a copper-based spray can slow it down, but removing leaves and keeping them dry does most of the work.`,
        },
      },
    ],
  },
  {
    slug: 'car-battery',
    title: 'Car Won’t Start in the Cold',
    start: '2026-01-08T07:31:00Z',
    model: 'gpt-5-2',
    turns: [
      {
        user: 'car makes a clicking noise and wont start this morning, its -4 outside. lights on the dash come on. battery?',
        reply: `Very likely the battery. Rapid clicking with dash lights on means there is enough power for the lights but not for the starter motor, and cold weather cuts a battery's capacity by a third or more.

What you can do now:
- **Jump-start** it with cables and a neighbour's car, or a jump pack. Connect red to red, black to a bare metal point on your engine, not the negative terminal.
- Once it runs, **drive for 30+ minutes** so the alternator can recharge it.
- If the battery is over 5 years old, get it tested. Most parts shops do it for free in a few minutes.

If it is a single loud click and no cranking even with a jump, the starter motor is the more likely culprit.`,
      },
    ],
  },
  {
    slug: 'puppy-sofa',
    title: 'Puppy Chewing the Sofa',
    start: '2026-01-25T16:20:00Z',
    model: 'gpt-5-2',
    turns: [
      {
        user: 'We got a 4 month old spaniel puppy two weeks ago and she has chewed through a sofa cushion and is starting on the table legs. She has toys. Help?',
        reply: `Four months is peak teething, so the chewing is normal – the goal is to redirect it, not to stop it.

1. **Make the sofa and table boring**: a bitter apple spray on the legs, and block access to the living room when you cannot watch her (a baby gate or a crate with the door open).
2. **Rotate toys**: give 2–3 at a time and swap them every few days so they feel new. Spaniels love something to carry.
3. **Offer better things to chew**: a rubber Kong filled with wet food and frozen, a frozen wet flannel, chews sized for puppies.
4. **Interrupt and swap**: when she starts on the cushion, a calm "ah-ah", then hand her a toy and praise her when she takes it. No shouting.
5. **Tire her brain**: 10 minutes of sniffing games or training tires a spaniel more than a long walk.

It usually calms down a lot once the adult teeth are in, around 6–7 months.`,
      },
      {
        user: 'She mostly does it in the evening, like 8pm, gets really wild',
        reply: `Those are the "zoomies" or the witching hour – very common in puppies, and usually a sign she is overtired rather than full of energy.

Try a routine for the evening:
- a short sniffy walk or a play session around 7 pm,
- then a frozen Kong or a lick mat in her crate or bed,
- lights down and quiet, so she learns that evening means settling.

Puppies need 18–20 hours of sleep a day. If she has been awake and busy most of the afternoon, an enforced nap often fixes the 8 pm chaos.`,
      },
    ],
  },
  {
    slug: 'heat-pump-bill',
    title: 'Heating Cost Comparison',
    start: '2025-11-30T19:10:00Z',
    model: 'gpt-5-1',
    turns: [
      {
        user: 'Is it cheaper to keep the heating on low all day or turn it on only when we need it? gas boiler, semi detached house',
        reply: `For a gas boiler in a typical semi, heating **only when you need it** is cheaper. A house loses heat faster the warmer it is inside, so keeping it warm all day means paying to replace heat that leaks out while nobody is home.

The exceptions:
- with a **heat pump**, low and steady is usually better,
- in a very well insulated house the difference is small,
- in very cold spells, keeping a low setback (say 15 °C) stops pipes freezing and the house from getting too damp.

Practical setup: a timer for mornings and evenings, 19–20 °C when you are in, and a thermostatic valve turned down in rooms you do not use.`,
      },
    ],
  },
];
