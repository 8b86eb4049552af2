// Loaded by mocha before any test file (see .mocharc.json).
import 'reflect-metadata';
