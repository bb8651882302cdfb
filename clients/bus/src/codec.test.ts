import { farm } from '@farm/proto';
import { CONTENT_TYPE_HEADER, JSON_CONTENT, PROTOBUF, decodeMessage, encodeMessage } from './codec';
import { Topics } from './topics';

const spec = Topics.changeRequests;
const request = { changeRequestId: 'cr-1', title: 'Add retry', repo: { url: 'https://git.example/app.git' } };
const json = Buffer.from(JSON.stringify(request));

test('a message is decoded as its content-type says: protobuf or the proto3 JSON mapping', () => {
  const encoded = encodeMessage(spec, request);
  expect(decodeMessage(spec, encoded, { [CONTENT_TYPE_HEADER]: PROTOBUF }).title).toBe('Add retry');
  expect(decodeMessage(spec, json, { [CONTENT_TYPE_HEADER]: `${JSON_CONTENT}; charset=utf-8` }).title).toBe(
    'Add retry',
  );
});

test('without a content-type, a JSON object (as kcat or the console producer send it) is read as JSON, else protobuf', () => {
  expect(decodeMessage(spec, json, {}).repo?.url).toBe('https://git.example/app.git');
  // Every encoded request starts with some other byte than `{`, so it is still read as protobuf.
  const encoded = encodeMessage(spec, { ...request, requireApproval: true, checkCommand: 'make test' });
  expect(encoded[0]).not.toBe(0x7b);
  expect(decodeMessage(spec, encoded, {})).toBeInstanceOf(farm.v1.ChangeRequest);
  expect(decodeMessage(spec, encoded, {}).checkCommand).toBe('make test');
});

test('bad messages are DecodeErrors that say what is wrong', () => {
  expect(() => decodeMessage(spec, Buffer.from('{"title": '), {})).toThrow(/invalid JSON on farm.change-requests.v1/);
  expect(() => decodeMessage(spec, Buffer.from('{"title": "x"}'), {})).toThrow(/has no change_request_id/);
  expect(() => decodeMessage(spec, json, { [CONTENT_TYPE_HEADER]: PROTOBUF })).toThrow(/not a valid protobuf/);
  expect(() => decodeMessage(spec, json, { [CONTENT_TYPE_HEADER]: 'text/plain' })).toThrow(/unsupported content-type/);
  expect(() => decodeMessage(spec, Buffer.alloc(0), {})).toThrow(/empty message/);
});
