import { describe, expect, it } from 'vitest';
import { anchorAllDates, anchorRelativeDates } from '../../functions/adapters/models/local/text.js';
import { summariseExtractively } from '../../functions/adapters/models/local/summaries.js';

// A Wednesday.
const at = '2025-01-15T10:00:00Z';

describe('relative dates', () => {
  it('are anchored with the date they mean, backwards for the past and forwards for the future', () => {
    expect(anchorRelativeDates('Yesterday I went hiking in the hills.', at)).toBe('Yesterday (2025-01-14) I went hiking in the hills.');
    expect(anchorRelativeDates('Two days ago I ran a half marathon.', at)).toBe('Two days ago (2025-01-13) I ran a half marathon.');
    expect(anchorRelativeDates('Last Wednesday I saw a jazz concert.', at)).toBe('Last Wednesday (2025-01-08) I saw a jazz concert.');
    expect(anchorRelativeDates('I sold a bowl 3 weeks ago.', at)).toBe('I sold a bowl 3 weeks ago (2024-12-25).');
    expect(anchorRelativeDates('Remind me to pay the bill by Friday.', at)).toBe('Remind me to pay the bill by Friday (2025-01-17).');
    expect(anchorRelativeDates('I will call her tomorrow.', at)).toBe('I will call her tomorrow (2025-01-16).');
    // A year or a month said is anchored as one, not as a day nobody named.
    expect(anchorRelativeDates('We did christmas in leeds last year!', at)).toBe('We did christmas in leeds last year (2024)!');
    expect(anchorRelativeDates('She moved to Porto two months ago.', at)).toBe('She moved to Porto two months ago (2024-11).');
    expect(anchorRelativeDates('The lease ends next month.', at)).toBe('The lease ends next month (2025-02).');
  });

  it('leave sentences without a relative date, or with an ambiguous one, alone', () => {
    for (const sentence of ['My office is on floor 5.', 'I was born on 3 May 1990.', 'Today is busy.', 'Yoga is on Tuesdays.', 'Class is Tuesday evenings for eight weeks.', 'Every Monday I swim.', 'The first Monday of June is a holiday.']) {
      expect(anchorAllDates(sentence, at)).toBe(sentence);
    }
  });

  it('in a record, read a weekday, a day of the month or a day and month named without more by the tense it is told in: the one before for the past, the next one otherwise', () => {
    expect(anchorAllDates('On Saturday I went sailing.', at)).toBe('On Saturday (2025-01-11) I went sailing.');
    expect(anchorAllDates('Theo lost his first tooth on Wednesday!', at)).toBe('Theo lost his first tooth on Wednesday (2025-01-08)!');
    expect(anchorAllDates('We leave for Lisbon on Wednesday!', at)).toBe('We leave for Lisbon on Wednesday (2025-01-22)!');
    expect(anchorAllDates("i'm so excited for friday", at)).toBe("i'm so excited for friday (2025-01-17)");
    expect(anchorAllDates('Demo started on Monday and by Tuesday afternoon it was just studs.', at)).toBe('Demo started on Monday (2025-01-13) and by Tuesday afternoon (2025-01-14) it was just studs.');
    // The weekday beside a date is not dated again; the date is.
    expect(anchorAllDates('The race is on Sunday 12 October, and on Sunday, March 2 too.', at)).toBe('The race is on Sunday 12 October (2025-10-12), and on Sunday, March 2 (2025-03-02) too.');
    expect(anchorAllDates('saw them live yday. dinner on the 14th? or on the 19th', at)).toBe('saw them live yday (2025-01-14). dinner on the 14th (2025-02-14)? or on the 19th (2025-01-19)');
    expect(anchorAllDates('call me tmrw', at)).toBe('call me tmrw (2025-01-16)');
    expect(anchorAllDates("I strained my calf on saturday's long run.", at)).toBe("I strained my calf on saturday's (2025-01-11) long run.");
    // A verb whose past is its present is read as past beside its subject; a hypothetical is not.
    expect(anchorAllDates('I hurt my wrist on Sunday lifting the kayak.', at)).toBe('I hurt my wrist on Sunday (2025-01-12) lifting the kayak.');
    expect(anchorAllDates('She only cut her fringe on Monday and hates it.', at)).toBe('She only cut her fringe on Monday (2025-01-13) and hates it.');
    expect(anchorAllDates('The ferry tore its moorings on Friday.', at)).toBe('The ferry tore its moorings on Friday (2025-01-10).');
    expect(anchorAllDates('if I cut it on Saturday it should dry by Monday', at)).toBe('if I cut it on Saturday (2025-01-18) it should dry by Monday (2025-01-20)');
    expect(anchorAllDates("fyi i've got an interview thursday", at)).toBe("fyi i've got an interview thursday (2025-01-16)");
    // A fragment without a verb is read in its message's tense; a question about a day is a plan.
    const message = 'huge news: the baby came early! tuesday night. dinner on the 20th to celebrate?';
    expect(anchorAllDates('tuesday night.', at, message)).toBe('tuesday night (2025-01-14).');
    expect(anchorAllDates('dinner on the 20th to celebrate?', at, message)).toBe('dinner on the 20th (2025-01-20) to celebrate?');
    // So is a longer sentence that opens with the day and has no tense of its own: an answer in brief.
    const born = 'Monday, at twenty past four in the morning, a week early. Eight pounds exactly. Sam drove us in.';
    expect(anchorAllDates('Monday, at twenty past four in the morning, a week early.', at, born)).toBe('Monday (2025-01-13), at twenty past four in the morning, a week early.');
    // A day some weeks off said as a deadline in reported words is the one to come; a past day stays past.
    const june = '2025-06-20T10:00:00Z';
    expect(anchorAllDates("They've just emailed saying they can't get the medals to us before 18 July.", june)).toBe("They've just emailed saying they can't get the medals to us before 18 July (2025-07-18).");
    expect(anchorAllDates('I emailed her on 3 July.', june)).toBe('I emailed her on 3 July (2024-07-03).');
    expect(anchorAllDates('We had finished the house by 2 August.', june)).toBe('We had finished the house by 2 August (2024-08-02).');
    // A reply that tells no tense at all takes the tense of what it answers; a reply with a tense of its own keeps it.
    expect(anchorAllDates('Tuesday.', at, 'Tuesday. fine I think. panel of 3', "how'd the interview go")).toBe('Tuesday (2025-01-14).');
    expect(anchorAllDates('on the 4th.', at, 'on the 4th. at your place. on a holiday', 'he stuck his nose in a hive. the bees were defending themselves')).toBe('on the 4th (2025-01-04).');
    expect(anchorAllDates('Tuesday.', at, 'Tuesday. works for me', 'when should we meet?')).toBe('Tuesday (2025-01-21).');
    expect(anchorAllDates('Tuesday.', at, "Tuesday. I'll bring the cake", 'how did the party go')).toBe('Tuesday (2025-01-21).');
    expect(anchorAllDates('Tuesday.', at, 'Tuesday.')).toBe('Tuesday (2025-01-21).');
    // What has gone on since a day began before it.
    expect(anchorAllDates('home since thursday. cone of shame', at)).toBe('home since thursday (2025-01-09). cone of shame');
    expect(anchorAllDates('My knee has been sore since the 20th.', at)).toBe('My knee has been sore since the 20th (2024-12-20).');
    // A weekday said with a day of the month says which month; a plan in the present progressive is to come.
    const november = '2024-11-03T11:00:00Z';
    expect(anchorAllDates('I am having a cataract removed from my right eye on Thursday the 14th, at Cheltenham General.', november)).toBe('I am having a cataract removed from my right eye on Thursday the 14th (2024-11-14), at Cheltenham General.');
    expect(anchorAllDates('On Sunday the 27th we finally painted it.', november)).toBe('On Sunday the 27th (2024-10-27) we finally painted it.');
    // "start Oct 6" is a start to come, whatever the message around it told of before.
    expect(anchorAllDates('start Oct 6', '2025-09-25T12:30:00Z', 'yeah. signed. start Oct 6')).toBe('start Oct 6 (2025-10-06)');
    expect(anchorAllDates('The start date was the 3rd, we didn\'t start until Monday.', '2025-09-25T12:30:00Z')).toBe('The start date was the 3rd, we didn\'t start until Monday (2025-09-22).');
    // A side is no past: "do you have a date for your left eye?" asks of a day to come.
    expect(anchorAllDates('The 10th of April.', '2025-02-28T12:00:00Z', 'The 10th of April. Would you still be able to drive me?', 'And do you have a date for your left eye?')).toBe('The 10th of April (2025-04-10).');
    // A longer message tells its own news: the one before it says nothing of its days.
    const booked = 'train booked for graduation btw. shrewsbury to edinburgh thursday 27th, 9:12am, change at crewe. back on saturday';
    expect(anchorAllDates('back on saturday', '2025-11-16T12:00:00Z', booked, 'we had such a lovely time at the weekend')).toBe('back on saturday (2025-11-22)');
    // A day set for something, or the new day a thing moved to, is one to come whatever else the sentence tells of.
    const march = '2025-03-05T12:00:00Z';
    expect(anchorAllDates('other thing, got the email from Lakeshore, booked them for March 29, day after closing.', march)).toBe('other thing, got the email from Lakeshore, booked them for March 29 (2025-03-29), day after closing.');
    expect(anchorAllDates('closing got pushed from March 28 to April 4', march)).toBe('closing got pushed from March 28 (2025-03-28) to April 4 (2025-04-04)');
    expect(anchorAllDates('Tom is the new director. announced yesterday, effective April 7', march)).toBe('Tom is the new director. announced yesterday (2025-03-04), effective April 7 (2025-04-07)');
    expect(anchorAllDates('now April 21', march, 'Lumenpay pushed 4.2 again. now April 21')).toBe('now April 21 (2025-04-21)');
    expect(anchorAllDates("thats fine honestly, nobody's blocked until sprint planning on the 12th", march)).toBe("thats fine honestly, nobody's blocked until sprint planning on the 12th (2025-03-12)");
    const rebooked = 'my news: I rebooked Lisbon officially. September 20 to 28. Dev has resumed duolingo';
    expect(anchorAllDates('September 20 to 28.', '2025-07-10T12:00:00Z', rebooked)).toBe('September 20 (2025-09-20) to 28.');
    expect(anchorAllDates('I booked it on Monday and went on Friday.', march)).toBe('I booked it on Monday (2025-03-03) and went on Friday (2025-02-28).');
    // A span in which something was done or measured is no day to come.
    expect(anchorAllDates("That's 800 grams down in two weeks, which is steady.", at)).toBe("That's 800 grams down in two weeks, which is steady.");
    expect(anchorAllDates("She said I'd made more difference in three months than she expected in six.", at)).toBe("She said I'd made more difference in three months than she expected in six.");
    expect(anchorAllDates("I haven't slept properly in 3 days but we launched", at)).toBe("I haven't slept properly in 3 days but we launched");
    expect(anchorAllDates("you've got a move in three weeks.", at)).toBe("you've got a move in three weeks (2025-02-05).");
    // A range ends after it starts.
    expect(anchorAllDates("And Galloway's booked! The Halloween weekend, Friday the 31st to Sunday.", '2025-10-01T10:00:00Z')).toBe("And Galloway's booked! The Halloween (2025-10-31) weekend, Friday the 31st (2025-10-31) to Sunday (2025-11-02).");
    const plan = 'Friday at the park with the kids, if the weather holds. Can you bring the ball?';
    expect(anchorAllDates('Friday at the park with the kids, if the weather holds.', at, plan)).toBe('Friday (2025-01-17) at the park with the kids, if the weather holds.');
    expect(anchorAllDates('On Sunday the 12th I ran 12k.', at)).toBe('On Sunday the 12th (2025-01-12) I ran 12k.');
    expect(anchorAllDates('It was on the 28th.', at)).toBe('It was on the 28th (2024-12-28).');
    expect(anchorAllDates('We brought her home the Saturday before last.', at)).toBe('We brought her home the Saturday before last (2025-01-04).');
    expect(anchorAllDates("I'll see him on Monday, we talked on Monday too.", at)).toBe("I'll see him on Monday (2025-01-20), we talked on Monday (2025-01-13) too.");
    // A day and a month without a year take the year nearest the day they were said, in the tense they are told in.
    expect(anchorAllDates("we're moving launch from June 2 to June 23.", at)).toBe("we're moving launch from June 2 (2025-06-02) to June 23 (2025-06-23).");
    expect(anchorAllDates('The party on 20 December was great.', at)).toBe('The party on 20 December (2024-12-20) was great.');
    expect(anchorAllDates('His birthday is 20 August.', at)).toBe('His birthday is 20 August (2025-08-20).');
    for (const sentence of ['I was born on 3 May 1990.', 'I may 5 times']) expect(anchorAllDates(sentence, at)).toBe(sentence);
    expect(anchorAllDates('We marry May 16 next year.', at)).toBe('We marry May 16 next year (2026).');
    // A weekday beside them says which year: the nearest in which that day falls on it.
    const april = '2025-04-27T10:00:00Z';
    expect(anchorAllDates('The flooring arrived on Friday and the opening is confirmed for Sunday 1 June.', april)).toBe('The flooring arrived on Friday (2025-04-25) and the opening is confirmed for Sunday 1 June (2025-06-01).');
    // Chat's short weekday does the same ("sat" is a weekday here, not a past tense).
    expect(anchorAllDates('ok so its sat 21st june, meet at the boathouse', '2025-03-03T10:00:00Z')).toBe('ok so its sat 21st june (2025-06-21), meet at the boathouse');
    expect(anchorAllDates('we sat down on fri 7 march to plan it', '2025-03-10T10:00:00Z')).toBe('we sat down on fri 7 march (2025-03-07) to plan it');
    // A clause told in the present is of what is to come, whatever the rest of the sentence did.
    expect(anchorAllDates('We went in March, and the next one is on 4 July.', april)).toBe('We went in March, and the next one is on 4 July (2025-07-04).');
    expect(anchorAllDates("I'm flying home Wednesday.", april)).toBe("I'm flying home Wednesday (2025-04-30).");
    expect(anchorAllDates("I just landed and I'm still thinking about Saturday.", april)).toBe("I just landed and I'm still thinking about Saturday (2025-04-26).");
    expect(anchorAllDates('We went on Saturday, June 1 and loved it.', april)).toBe('We went on Saturday, June 1 (2024-06-01) and loved it.');
    // Writing a day down happens before it: the day saved, booked or recorded is to come.
    expect(anchorAllDates("I've saved your race date as May 18 and your target as 79 kg.", april)).toBe("I've saved your race date as May 18 (2025-05-18) and your target as 79 kg.");
    expect(anchorAllDates('I have recorded June 20 as your go-live date.', april)).toBe('I have recorded June 20 (2025-06-20) as your go-live date.');
    expect(anchorAllDates('booked the physio for june 3 at 4pm, earliest slot', april)).toBe('booked the physio for june 3 (2025-06-03) at 4pm, earliest slot');
    // Chat's lower-case months count; "may" only where it introduces a day, and a day moved to is one to come.
    expect(anchorAllDates('party moved to may 16, same place', april)).toBe('party moved to may 16 (2025-05-16), same place');
    // What was moved may come between the verb and the day (found in stop 63's README check).
    expect(anchorAllDates("I've moved your physio to Thursday at 14:00.", april)).toBe("I've moved your physio to Thursday (2025-05-01) at 14:00.");
    expect(anchorAllDates('you may 3x the recipe', april)).toBe('you may 3x the recipe');
    expect(anchorAllDates('we moved to Leeds on june 3 and hated it', april)).toBe('we moved to Leeds on june 3 (2024-06-03) and hated it');
    // What starts or is due on a day is to come; so is a day a week off, whatever tense the sentence was told in.
    expect(anchorAllDates('got the job!! fiona was my supervisor. starting 3rd june', april)).toBe('got the job!! fiona was my supervisor. starting 3rd june (2025-06-03)');
    expect(anchorAllDates('I said the freeze was May 2. it moved.', april)).toBe('I said the freeze was May 2 (2025-05-02). it moved.');
    expect(anchorAllDates("I've marked Saturday as your long run, and I've updated your race date to May 3.", april)).toBe("I've marked Saturday (2025-05-03) as your long run, and I've updated your race date to May 3 (2025-05-03).");
    // A range keeps its words together; its first day is dated after it.
    expect(anchorAllDates('they only have june 19-21 open', april)).toBe('they only have june 19-21 (2025-06-19) open');
    // "due to" is a cause, "was due" a past; a day a week off is taken as to come only in reported words.
    expect(anchorAllDates('The flight was cancelled due to the storm on Friday.', april)).toBe('The flight was cancelled due to the storm on Friday (2025-04-25).');
    expect(anchorAllDates('my dad passed away on May 2, it was sudden', april)).toBe('my dad passed away on May 2 (2024-05-02), it was sudden');
    // "march" in lower case is a verb unless a word introduces a day; a spaced hyphen is no range.
    expect(anchorAllDates('we march 10 miles every week', april)).toBe('we march 10 miles every week');
    expect(anchorAllDates('party on june 19 - 30 guests', april)).toBe('party on june 19 (2025-06-19) - 30 guests');
    // A deed said beside it still tells of the past.
    expect(anchorAllDates('I booked it and we went on April 12.', april)).toBe('I booked it and we went on April 12 (2025-04-12).');
    expect(anchorAllDates('It was Monday 1 June, I think.', april)).toBe('It was Monday 1 June (2024-06-01), I think.');
    // Summaries, bounded in tokens, anchor only the relative expressions above.
    expect(anchorRelativeDates('On Saturday I went sailing.', at)).toBe('On Saturday I went sailing.');
  });

  it('date a day said a week on from another as one day to come, and read chat\'s short weekdays', () => {
    // `at` is a Wednesday, 2025-01-15.
    expect(anchorAllDates('The survey is a week tomorrow, at the yard.', at)).toBe('The survey is a week tomorrow (2025-01-23), at the yard.');
    expect(anchorAllDates('We fly a week today.', at)).toBe('We fly a week today (2025-01-22).');
    expect(anchorAllDates('The check-up is a week on Friday.', at)).toBe('The check-up is a week on Friday (2025-01-24).');
    expect(anchorAllDates('See you Friday week!', at)).toBe('See you Friday week (2025-01-24)!');
    expect(anchorAllDates('I start the Monday after next.', at)).toBe('I start the Monday after next (2025-01-27).');
    expect(anchorAllDates('Mum lands Thursday next week.', at)).toBe('Mum lands Thursday next week (2025-01-23).');
    expect(anchorAllDates('next week on Tuesday works', at)).toBe('next week on Tuesday (2025-01-21) works');
    expect(anchorRelativeDates('kestrel goes into dry dock a week tomorrow', at)).toBe('kestrel goes into dry dock a week tomorrow (2025-01-23)');
    expect(anchorAllDates('signed everything on thurs and got the keys', at)).toBe('signed everything on thurs (2025-01-09) and got the keys');
    expect(anchorAllDates('he finally had a scope on tues', at)).toBe('he finally had a scope on tues (2025-01-14)');
    expect(anchorAllDates('every Friday week is a half day', at)).toBe('every Friday week is a half day');
    // Chat's shortest weekdays, where nothing else is meant; "last nite"; a weekday "just gone"; "burnt".
    expect(anchorAllDates('my news: started new job mon', at, 'my news: started new job mon')).toBe('my news: started new job mon (2025-01-13)');
    expect(anchorAllDates('sent my first 6a boulder on mon', at)).toBe('sent my first 6a boulder on mon (2025-01-13)');
    expect(anchorAllDates('£8 for 6. from next sat', at)).toBe('£8 for 6. from next sat (2025-01-25)');
    expect(anchorAllDates('starts a week tmrw', at)).toBe('starts a week tmrw (2025-01-23)');
    expect(anchorAllDates('last nite. 6a at the depot', at)).toBe('last nite (2025-01-14). 6a at the depot');
    expect(anchorAllDates('tuesday just gone. first lesson', at)).toBe('tuesday (2025-01-14) just gone. first lesson');
    expect(anchorAllDates('burnt my hand on weds', at)).toBe('burnt my hand on weds (2025-01-08)');
    for (const sentence of ['I sat at the desk and the sun was out', 'come on mon, we can do it', 'me off tue fri... it might work', 'verdict was thursday week ago, the 27th']) expect(anchorAllDates(sentence, at, sentence)).not.toMatch(/\(\d{4}-\d\d-\d\d\)/);
    // "The following Wednesday" follows a day said elsewhere, not the day it was said: left as said.
    expect(anchorAllDates("can't do the 14th. earliest is the following wednesday so 21st january", at)).not.toContain('wednesday (');
    // "six hundred and forty" is one number, not two clauses: the past tense before it still holds.
    expect(anchorAllDates('I sold six hundred and forty pounds of pottery in one day.', at)).toBe('I sold six hundred and forty pounds of pottery in one day.');
  });

  it('take time in proportion to the text, however many dates it names', () => {
    // Timed at 8 KB and 32 KB, best of three each: four times the text may take about four times as
    // long, and a quadratic reading (11 s for 64 KB of "on the 3rd" once) about sixteen. A ratio, not
    // a wall-clock limit, so a busy machine slows both sides alike.
    const best = (text: string) =>
      Math.min(...[0, 1, 2].map(() => {
        const started = performance.now();
        anchorAllDates(text, at, text);
        return performance.now() - started;
      }));
    for (const piece of ['on Monday we met, ', 'on the 3rd ', 'June 2 ', 'tuesday night. ']) {
      const of = (size: number) => piece.repeat(Math.ceil(size / piece.length)).slice(0, size);
      const small = best(of(8_192));
      const large = best(of(32_768));
      expect(large / Math.max(small, 1)).toBeLessThan(9);
    }
  });

  it('are anchored in summaries of raw records, and kept as written (with the record each line cites) in summaries of summaries', () => {
    const base = summariseExtractively({ ladder: 'time', level: 0, from: '2025-01-15', to: '2025-01-15', maxTokens: 200, sources: [{ id: 'D1:1', at, text: 'Yesterday I ran a half marathon with Marco.', role: 'user' }] });
    expect(base.text).toBe('2025-01-15 [D1:1]: Yesterday (2025-01-14) I ran a half marathon with Marco.');
    const week = summariseExtractively({ ladder: 'time', level: 1, from: '2025-01-13', to: '2025-01-19', maxTokens: 200, sources: [{ id: 'time:0:1', at: '2025-01-16T00:00:00Z', text: base.text }] });
    expect(week.text).toBe(base.text);
  });
});

describe('seasons', () => {
  it('are followed by the year of the one meant, as said from the day they were said', () => {
    expect(anchorAllDates('We went to Crete last summer.', '2023-10-02T10:00:00Z')).toBe('We went to Crete last summer (2023).');
    expect(anchorAllDates('We went to Crete last summer.', '2023-05-02T10:00:00Z')).toBe('We went to Crete last summer (2022).');
    expect(anchorRelativeDates('I want to run a marathon next spring.', '2023-05-02T10:00:00Z')).toBe('I want to run a marathon next spring (2024).');
    expect(anchorAllDates('next autumn we move.', '2023-05-02T10:00:00Z')).toBe('next autumn (2023) we move.');
    expect(anchorAllDates('It snowed all last winter.', '2023-05-02T10:00:00Z')).toBe('It snowed all last winter.');
  });
});

describe('holidays on a fixed day', () => {
  it('are dated as a day and month said without a year: the last one for the past, the next one otherwise', () => {
    const january = '2025-01-19T10:00:00Z';
    expect(anchorAllDates("I began on New Year's Day with a group from the university.", january)).toBe("I began on New Year's Day (2025-01-01) with a group from the university.");
    expect(anchorAllDates('We spent Christmas Eve at my sister’s.', january)).toBe('We spent Christmas Eve (2024-12-24) at my sister’s.');
    expect(anchorAllDates("I'll be back by Valentine's Day.", january)).toBe("I'll be back by Valentine's Day (2025-02-14).");
    expect(anchorAllDates('the fireworks on the Fourth of July', '2025-06-20T10:00:00Z')).toBe('the fireworks on the Fourth of July (2025-07-04)');
    expect(anchorAllDates('Boxing Day is on the way.', '2025-12-01T10:00:00Z')).toBe('Boxing Day (2025-12-26) is on the way.');
  });

  it('leave the holiday as a season or a thing alone, and a day too far off to place', () => {
    for (const sentence of ['He wrote to Father Christmas.', 'The Christmas party is at the pub.', 'I hate Christmas shopping.', "My New Year's resolutions are a joke.", 'Halloween costumes are sold out.', 'Christmas 2019 was the best.']) {
      expect(anchorAllDates(sentence, '2025-11-01T10:00:00Z')).toBe(sentence);
    }
    // A holiday said with its day is dated once, at the day.
    expect(anchorAllDates("Anything planned for Valentine's on Friday?", '2025-02-09T10:00:00Z')).toBe("Anything planned for Valentine's on Friday (2025-02-14)?");
    // Christmas said in March: nine months and more either way.
    expect(anchorAllDates('Christmas was lovely.', '2025-03-01T10:00:00Z')).toBe('Christmas (2024-12-25) was lovely.');
    expect(anchorAllDates('Christmas is a while off.', '2025-03-01T10:00:00Z')).toBe('Christmas is a while off.');
  });
});
